# frozen_string_literal: true

module Rackbench
  module Reports
    # A markdown table of configs side by side (004's comparison, 003's
    # "tuning Puma"): one column per config while that fits WIDTH columns,
    # else transposed, one row per config, so a reader never scrolls sideways;
    # a transposed table still too wide is cut into tables of fewer figures.
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
        text = table([@corner, *@columns], @rows.zip(@values).map { |name, vs| [name, *vs] })
        return text if fits?(text)

        parts = [@rows.each_index.to_a]
        parts = parts.flat_map { |p| p.each_slice((p.size + 1) / 2).to_a } until parts.all? { |p| done?(p) }
        parts.map { |p| transposed(p) }.join("\n")
      end

      private

      # Markdown aligned for a reader of the raw text: the first column left, the others right.
      def table(header, rows) = Grid.new(header, rows).markdown(padded: true)

      def done?(indexes) = indexes.size == 1 || fits?(transposed(indexes))

      def fits?(text) = text.lines.map { |l| l.chomp.length }.max <= WIDTH

      # One row per config, with the given rows (figures) as columns.
      def transposed(indexes)
        rows = @columns.each_index.map { |c| [@columns[c], *indexes.map { |i| @values[i][c] }] }
        table(["config", *indexes.map { |i| @short_rows[i] }], rows)
      end
    end
  end
end
