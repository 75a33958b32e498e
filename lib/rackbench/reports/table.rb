# frozen_string_literal: true

module Rackbench
  module Reports
    # The terminal table: what ran, one block per endpoint (throughput as a
    # median with its 95 % CI, latency, errors n/tot, memory, CPU, repeats),
    # the verdict of each comparison, failures one line each, and the
    # warnings with their advice. Fits WIDTH columns: optional columns are
    # dropped, in DROPPABLE order, until it does.
    class Table < Base
      WIDTH = 120
      DROPPABLE = %w[cv latency_p50_ms cpu_percent].freeze

      def render
        out = heading.map { |l| "#{wrap(l)}\n" }.join
        out << TuneAnswer.new(run).text
        sections.each do |endpoint, rows|
          out << "\n#{endpoint}\n" << grid(rows)
        end
        out << MixBreakdown.new(measurements).text
        out << RateSweep.new(measurements).text
        lines = verdicts.map { |v| v["text"] }
        out << "\n#{VERDICTS_HEADING}:\n" unless lines.empty?
        lines.each { |l| out << "#{wrap("  #{l}")}\n" }
        out << "#{wrap("  #{verdicts_note}")}\n" unless lines.empty?
        failure_lines.each { |l| out << "\n#{wrap(l)}" }
        out << "\n" unless failures.empty?
        found = warnings
        out << "\nWarnings:\n" << found.map { |w| "#{wrap("  - #{w}")}\n" }.join unless found.empty?
        out
      end

      private

      def grid(rows)
        columns = COLUMNS.dup
        loop do
          text = layout(columns, rows)
          return text if text.lines.map { |l| l.chomp.length }.max <= WIDTH

          drop = DROPPABLE.find { |key| columns.any? { |k, _| k == key } }
          return text unless drop

          columns = columns.reject { |k, _| k == drop }
        end
      end

      def layout(columns, rows)
        headers = columns.map(&:last)
        body = rows.map { |r| columns.map { |key, _| fmt(r[key]) } }
        widths = headers.each_index.map { |i| ([headers[i]] + body.map { |b| b[i] }).map(&:length).max }
        line = lambda { |cells|
          padded = cells.each_with_index.map { |c, i| i.zero? ? c.ljust(widths[i]) : c.rjust(widths[i]) }
          "#{padded.join("  ")}\n"
        }
        line.call(headers) + line.call(widths.map { |w| "-" * w }) + body.map(&line).join
      end
    end

    register("table", Table)
  end
end
