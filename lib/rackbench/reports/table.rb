# frozen_string_literal: true

module Rackbench
  module Reports
    # The terminal table: one block per endpoint, shaped like the tables of
    # 002_233cd323458ca8b1.txt (throughput, latency, errors n/tot) plus memory and CPU.
    class Table < Base
      def render
        out = heading.map { |l| "#{l}\n" }.join
        sections.each do |endpoint, rows|
          out << "\n#{endpoint}\n" << grid(rows)
        end
        failures.each { |c| out << "\nFAILED #{c["label"]} #{c["endpoint"]}: #{c["reason"]}\n" }
        out
      end

      private

      def grid(rows)
        headers = COLUMNS.map(&:last)
        body = rows.map { |r| COLUMNS.map { |key, _| fmt(r[key]) } }
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
