# frozen_string_literal: true

module Rackbench
  module Reports
    # `rackbench compare` (and `run --baseline`, `ab`): two runs' cells side
    # by side as a report Document: the title, one table (baseline and new
    # figure with their 95 % intervals, the change with its interval, the
    # Regression's outcome) with the same figures as numbers in its data,
    # and what the gate decided. Table, markdown and json serialize it as
    # they do a run's report; json keeps its keys (baseline, current,
    # metric, threshold, regressed, ..., cells) and adds "report".
    #
    #   report = RegressionReport.new(regression, baseline_run, current_run)
    #   report.table      # => Table.write(report.document), the formats found by name
    #   report.json       # => {"baseline" => 11, ..., "cells" => [...], "report" => {...}}
    class RegressionReport
      HEADERS = ["Server / config", "Endpoint", "Conc.", "Baseline [95% CI]", "New [95% CI]", "Change [95% CI]",
                 "Outcome"].freeze

      def initialize(regression, baseline, current)
        @regression = regression
        @baseline = baseline
        @current = current
      end

      def title
        "Run #{@current["id"]} (#{@current["suite"]}) against baseline run #{@baseline["id"]} " \
          "(#{@baseline["suite"]}): #{@regression.metric}, regression threshold #{(@regression.threshold * 100).round(1)} %"
      end

      def document
        @document ||= Document.new([title], [
                                     Document::Section.new("comparison", nil, [Grid.new(HEADERS, rows, left: 2)], cells),
                                     Document::Section.new("gate", nil, [Document::Text.plain(*footer)])
                                   ])
      end

      def table = Reports.fetch("table").write(document)
      def markdown = Reports.fetch("markdown").write(document)
      def json = Reports.fetch("json").write(document, to_h)

      # The comparison as numbers: the runs, the gate's outcome and each cell.
      def to_h
        { "baseline" => @baseline["id"], "current" => @current["id"], "metric" => @regression.metric,
          "threshold" => @regression.threshold, "regressed" => @regression.regressed?,
          "not_compared" => @regression.not_compared?, "inconclusive" => @regression.inconclusive?,
          "unmatched" => @regression.unmatched, "cells" => cells }
      end

      private

      def cells
        @regression.rows.map do |r|
          { "label" => r.label, "endpoint" => r.endpoint, "concurrency" => r.concurrency, "outcome" => r.outcome.to_s,
            "reason" => r.reason, "change" => @regression.change_text(r),
            "baseline" => r.baseline.figure(@regression.metric), "current" => r.current&.figure(@regression.metric),
            "comparison" => r.comparison&.to_h }
        end
      end

      def rows
        @regression.rows.map do |r|
          outcome = r.outcome.to_s.tr("_", " ")
          outcome = "#{outcome}: #{r.reason}" if r.reason
          [r.label, r.endpoint, r.concurrency, figure(r.baseline), r.current ? figure(r.current) : "missing",
           @regression.change_text(r), outcome]
        end
      end

      def figure(measurement)
        value = measurement.figure(@regression.metric)
        return measurement.ok? ? "-" : "failed" unless value

        ci = interval(measurement)
        ci ? format("%.1f [%.1f, %.1f]", value, ci.low, ci.high) : format("%.1f", value)
      end

      # The figure's own interval, by the method of its figure (Measurement).
      def interval(measurement)
        case @regression.metric
        when "requests_per_s" then measurement.requests_per_s_ci
        when "good_requests_per_s" then measurement.good_requests_per_s_ci
        when /\Alatency_p(\d+)_ms\z/ then measurement.latency_ci_ms(Regexp.last_match(1).to_i)
        else measurement.sample(@regression.metric).interval
        end
      end

      def footer
        lines = []
        lines << "Not in both runs: #{@regression.unmatched.join("; ")}" unless @regression.unmatched.empty?
        lines << if @regression.regressed?
                   "REGRESSED: at least one cell is significantly worse than the threshold."
                 elsif @regression.not_compared?
                   "NOT COMPARED: at least one baseline cell could not be compared, so the gate fails."
                 elsif @regression.inconclusive?
                   "No significant regression, but some cells are inconclusive (--strict fails on them)."
                 else
                   "No significant regression."
                 end
      end
    end
  end
end
