# frozen_string_literal: true

module Rackbench
  module Reports
    # A run's report as a Document, built once (Base#document) from the run
    # and its measurements, in this order: what ran; a tune run's answer
    # (TuneAnswer); a table per endpoint; the latency tail of every cell
    # (LatencyTail; not for a tune run's probes); the members of each traffic mix
    # (MixBreakdown); fast and slow clients apart (ClientGroups); the why
    # split (WhySection); capacity (CapacitySection); each rate sweep's curve
    # (RateSweep); the verdicts; the cells not measured (Failures); the
    # warnings. The verdicts and warnings are taken from the report
    # (Base#verdicts, #warnings) here and nowhere else: this file only places them.
    #
    #   RunDocument.new(report).document  # => Document
    class RunDocument
      # Dropped first when the terminal table is too wide.
      OPTIONAL = %w[cv latency_p50_ms cpu_percent].freeze

      def initialize(report)
        @report = report
      end

      def document
        run = @report.run
        cells = @report.cells
        tune = TuneAnswer.new(run)
        Document.new(@report.heading, [*tune.sections, *results, *(tune.any? ? [] : LatencyTail.new(cells).sections),
                                       *MixBreakdown.new(cells).sections, *ClientGroups.new(cells).sections,
                                       *WhySection.new(cells).sections,
                                       *CapacitySection.new(cells, run.dig("settings", "capacity")).sections,
                                       *@report.rate_sweep.sections,
                                       dependencies(cells), verdicts, failures, warnings].compact)
      end

      private

      # One table per endpoint: a row per measured cell (Base#rows_by_endpoint).
      def results
        titles = Base::COLUMNS.to_h
        @report.rows_by_endpoint.map do |endpoint, rows|
          grid = Grid.new(titles.values, rows.map { |r| titles.keys.map { |k| @report.fmt(r[k]) } },
                          optional: OPTIONAL.map { |k| titles[k] })
          Document::Section.new("results", endpoint, [grid])
        end
      end

      # Beside the server, what the app's dependencies used (Measurement#resources_text), when it has any.
      def dependencies(cells)
        lines = cells.select { |m| m.ok? && m.dependencies.any? }
                     .map { |m| "#{m.label} #{m.endpoint} c=#{m.concurrency}: #{m.resources_text}" }
        list("dependencies", "Server and dependencies (CPU, memory)", lines)
      end

      # The verdicts, then one line on how many comparisons were made (Multiplicity).
      def verdicts
        items = @report.verdicts.map { |v| v["text"] }
        return nil if items.empty?

        Document::Section.new("verdicts", Base::VERDICTS_HEADING,
                              [Document::Text.list(items), Document::Text.plain(@report.verdicts_note)])
      end

      def failures = Failures.new(@report.cells).section
      def warnings = list("warnings", "Warnings", @report.warnings)

      def list(id, title, items) = items.empty? ? nil : Document::Section.new(id, title, [Document::Text.list(items)])
    end
  end
end
