# frozen_string_literal: true

module Rackbench
  module Reports
    # First one row per cell, measured or not: the throughput over server
    # starts and its CI bounds as numbers, latency, errors, memory (with its
    # kind), CPU, the repeats, the warnings (joined by "; "), for a failed cell
    # the reason, and in a rate sweep (suite rates:) the cell's offered rate in
    # req/s. Then every other section of the report document (RunDocument;
    # its per-endpoint tables are the rows above), each after a blank line
    # under a "# Title" line: its tables as CSV, its lines as "# " lines. A
    # tool that wants the cells reads up to the first blank line.
    #
    #   rackbench report RUN --format csv | sed '/^$/q'   # the cells alone
    class Csv < Base
      KEYS = %w[endpoint server concurrency requests_per_s requests_per_s_low requests_per_s_high cv
                latency_mean_ms latency_p50_ms latency_p99_ms errors memory_mb memory_kind cpu_percent repeats
                warnings status reason offered_rate_per_s].freeze

      def render
        grid = Grid.new(KEYS, cells.map do |m|
          row = m.ok? ? row(m).merge(plain_latency(m)) : failed_row(m)
          row = row.merge("endpoint" => m.endpoint, "offered_rate_per_s" => m.offered_rate_per_s)
          KEYS.map { |k| row[k] }
        end)
        grid.csv + document.sections.reject { |s| s.id == "results" }.map { |s| "\n#{self.class.section(s)}" }.join
      end

      # A section as a block: "# Title", then each table as CSV and each line as a "# " line.
      def self.section(section)
        "# #{section.title || section.id}\n" + section.parts.map do |part|
          part.is_a?(Grid) ? part.csv : part.lines.map { |l| "# #{l}\n" }.join
        end.join
      end

      private

      # The completed responses' percentiles as numbers (a bound's ">=" is for
      # the document formats), empty where too few requests lie beyond one.
      def plain_latency(m)
        { "latency_p50_ms" => m.estimable_latency_ms(50)&.round(2), "latency_p99_ms" => m.estimable_latency_ms(99)&.round(2) }
      end

      def failed_row(m)
        { "server" => m.label, "concurrency" => m.concurrency, "status" => m.status, "reason" => m.reason }
      end
    end

    register("csv", Csv)
  end
end
