# frozen_string_literal: true

module Rackbench
  module Reports
    # A markdown table of configs side by side (004's comparison, 003's
    # "tuning Puma"): one column per config while that fits WIDTH columns,
    # else transposed, one row per config, so a reader never scrolls sideways.
    # Used by the ab and sweep formats.
    #
    #   SideBySide.new("req/s", ["/sleep", "/hello"], ["puma, 4 workers", "unicorn, 4 workers"], values).render
    #   # values[row][column]; short_rows: names for the rows when they become columns
    class SideBySide
      WIDTH = 120

      def initialize(corner, rows, columns, values, short_rows: rows)
        @corner = corner
        @rows = rows
        @columns = columns
        @values = values
        @short_rows = short_rows
      end

      def render
        text = self.class.table([@corner, *@columns], @rows.zip(@values).map { |name, vs| [name, *vs] })
        return text if text.lines.map { |l| l.chomp.length }.max <= WIDTH

        transposed = @columns.each_index.map { |c| [@columns[c], *@values.map { |vs| vs[c] }] }
        self.class.table(["config", *@short_rows], transposed)
      end

      # An aligned markdown table: the first column left-aligned, the others right.
      def self.table(header, rows)
        cells = [header, *rows].map { |r| r.map(&:to_s) }
        widths = header.each_index.map { |i| cells.map { |r| r[i].length }.max }
        line = ->(r) { "| #{r.each_with_index.map { |v, i| i.zero? ? v.ljust(widths[i]) : v.rjust(widths[i]) }.join(" | ")} |\n" }
        rule = "|#{widths.each_with_index.map { |w, i| i.zero? ? ":#{"-" * (w + 1)}" : "#{"-" * (w + 1)}:" }.join("|")}|\n"
        line.call(cells.first) + rule + cells.drop(1).map(&line).join
      end
    end
  end
end
