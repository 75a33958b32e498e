# frozen_string_literal: true

module Rackbench
  module Reports
    # The gate's answer in a few lines of markdown, for a CI job summary or a
    # pull-request comment: the exit status and why, what was compared, a
    # verdict per cell with its change, and the cells that changed. Printed
    # by `rackbench ab --format markdown` and `rackbench compare --format
    # markdown` from the Regression they computed (doc/ci.md).
    #
    #   GateSummary.new(regression, baseline_run, current_run, status: 1, command: "ab").markdown
    class GateSummary
      HEADERS = ["Config", "Endpoint", "Conc.", "Verdict", "Change [95% CI]"].freeze

      # Why the gate exits with each status (CLI::Gate's statuses).
      EXIT_REASONS = {
        0 => "no cell is significantly worse than the threshold",
        1 => "at least one cell is significantly worse than the threshold",
        5 => "at least one baseline cell could not be compared, so the gate fails",
        6 => "--strict, and at least one cell is inconclusive"
      }.freeze
      HEADLINES = { 0 => "passed", 1 => "REGRESSED", 5 => "NOT COMPARED", 6 => "INCONCLUSIVE" }.freeze

      def initialize(regression, baseline, current, status:, command:)
        @regression = regression
        @baseline = baseline
        @current = current
        @status = status
        @command = command
      end

      def markdown
        <<~MD
          ### rackbench #{@command}: #{HEADLINES.fetch(@status)}

          **Exit #{@status}**: #{EXIT_REASONS.fetch(@status)}.
          #{@current["suite"]} against #{@baseline["suite"]}; #{metric_text}, threshold #{(@regression.threshold * 100).round(1)} %.

          #{Grid.new(HEADERS, rows, left: 2, align: %i[left left right left right]).markdown.strip}

          #{changes}
        MD
      end

      private

      def metric_text = Measurement::METRICS.fetch(@regression.metric)[2]

      def rows
        @regression.rows.map do |r|
          verdict = r.outcome.to_s.tr("_", " ")
          verdict = "#{verdict}: #{r.reason}" if r.reason
          [r.label, r.endpoint, r.concurrency, verdict, @regression.change_text(r)]
        end
      end

      # The cells that moved, by outcome, each with its change; "No cell
      # changed" when every cell is equivalent or inconclusive.
      def changes
        moved = %i[regressed improved not_compared].filter_map do |outcome|
          cells = @regression.rows.select { |r| r.outcome == outcome }
          next if cells.empty?

          "#{outcome.to_s.tr("_", " ").capitalize}: #{cells.map { |r| cell_change(r) }.join("; ")}."
        end
        unmatched = @regression.unmatched
        moved << "Not in the baseline: #{unmatched.join("; ")}." unless unmatched.empty?
        moved.empty? ? "No cell changed beyond its interval." : moved.join("\n")
      end

      def cell_change(row)
        change = @regression.change_text(row)
        "#{row.label} #{row.endpoint} c=#{row.concurrency}#{" (#{change})" unless change == "-"}"
      end
    end
  end
end
