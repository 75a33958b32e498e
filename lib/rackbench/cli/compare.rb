# frozen_string_literal: true

require "json"

module Rackbench
  module CLI
    # rackbench compare BASELINE_RUN NEW_RUN [--threshold 5%] [--metric p99] [--strict] [--format table|markdown|json]
    # Exit status from the Gate (1 regressed, 5 not compared, 6 inconclusive
    # with --strict); Regression says how each cell is decided.
    class Compare
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
        @results = Store::Location.default
        @gate = Gate.new
        @format = "table"
      end

      def call
        parser.parse!(@argv)
        raise ConfigError, "compare needs two run ids: BASELINE_RUN NEW_RUN (see rackbench report --list)" unless @argv.size == 2

        store = Store.new(@results)
        baseline, current = @argv.map { |id| store.run(id) }
        regression = @gate.regression(store.measurements(baseline["id"]), store.measurements(current["id"]))
        raise ConfigError, "runs #{baseline["id"]} and #{current["id"]} have no cell in common" unless regression.matched?

        status = @gate.status(regression)
        @out.puts(if @format == "markdown"
                    Reports::GateSummary.new(regression, baseline, current, status: status, command: "compare").markdown
                  else
                    Render.new(regression, baseline, current).public_send(@format)
                  end)
        @err.puts "rackbench: #{regression.drift_text}" if regression.drift_text
        status
      end

      private

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench compare BASELINE_RUN NEW_RUN [options]\n" \
                     "Compares two stored runs cell by cell (server config, endpoint, concurrency).\n" \
                     "Exit 1 when a cell regressed (its interval lies wholly on the worse side and the change is " \
                     "worse than the threshold); 5 when a baseline cell could not be compared (failed, missing, " \
                     "errors above 1 %); 6 with --strict when a cell is inconclusive; 0 otherwise."
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          @gate.define(o)
          o.on("--format FORMAT", %w[table markdown json],
               "table (default), markdown (a short summary for a CI job or a pull request) or json") { |f| @format = f }
        end
      end

      # The comparison as a table, markdown or JSON.
      class Render
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

        def table = "#{title}\n\n#{grid.text}#{footer}"
        def markdown = "#{title}\n\n#{grid.markdown}#{footer}"

        def json
          JSON.pretty_generate(
            "baseline" => @baseline["id"], "current" => @current["id"], "metric" => @regression.metric,
            "threshold" => @regression.threshold, "regressed" => @regression.regressed?,
            "not_compared" => @regression.not_compared?, "inconclusive" => @regression.inconclusive?,
            "unmatched" => @regression.unmatched,
            "cells" => @regression.rows.map do |r|
              { "label" => r.label, "endpoint" => r.endpoint, "concurrency" => r.concurrency, "outcome" => r.outcome.to_s,
                "reason" => r.reason, "change" => @regression.change_text(r),
                "baseline" => r.baseline.figure(@regression.metric), "current" => r.current&.figure(@regression.metric),
                "comparison" => r.comparison&.to_h }
            end
          )
        end

        private

        # Server and endpoint left-aligned, the figures right.
        def grid = Reports::Grid.new(HEADERS, rows, left: 2)

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
          "\n#{lines.join("\n")}\n"
        end
      end
    end
  end
end
