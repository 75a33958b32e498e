# frozen_string_literal: true

require "cgi"
require "csv"

module Rackbench
  module Reports
    # The one table writer: a header and rows under columns that know their
    # alignment, written as aligned text, GitHub markdown, CSV or an HTML
    # table. Every table rackbench prints is a Grid (the report's sections,
    # compare, the tune answer, `rackbench servers`, the article's tables),
    # so its formats cannot drift apart. Cells are written as given (to_s,
    # nil as empty): the caller formats its numbers.
    #
    #   grid = Grid.new(["Config", "req/s", "CV"], [["puma x0:16", "2,050", "3.1%"]], optional: ["CV"])
    #   grid.text(width: 120)        # aligned, a rule under the header; optional columns dropped, in order, until it fits
    #   grid.text(header: false, indent: "  ")  # the rows alone, aligned, each line indented (a command's listing)
    #   grid.markdown                # "| Config | req/s | CV |\n| :--- | ---: | ---: |\n| puma x0:16 | 2,050 | 3.1% |\n"
    #   grid.markdown(padded: true)  # the same, aligned for a reader of the raw text
    #   grid.csv; grid.html; grid.to_h
    class Grid
      Column = Struct.new(:title, :align, :optional)

      attr_reader :columns, :rows

      # left: how many leading columns are left-aligned, the others are
      # right-aligned (align: one :left or :right per column says it outright);
      # optional: the titles of the columns text may drop to fit its width.
      def initialize(headers, rows, left: 1, align: nil, optional: [])
        align ||= headers.each_index.map { |i| i < left ? :left : :right }
        @columns = headers.each_with_index.map { |h, i| Column.new(h.to_s, align.fetch(i), optional.include?(h)) }
        @rows = rows.map(&:to_a)
      end

      def titles = columns.map(&:title)
      def empty? = rows.empty?

      # Two spaces between columns and a dashed rule under the header (none
      # with header: false). Given a width, drops optional columns (leftmost
      # first) until every line fits.
      def text(width: nil, header: true, indent: "")
        shown = columns.each_index.to_a
        loop do
          out = aligned(shown, header).gsub(/^/, indent)
          return out if width.nil? || out.lines.map { |l| l.chomp.length }.max <= width

          drop = shown.find { |i| columns[i].optional }
          return out unless drop

          shown -= [drop]
        end
      end

      def markdown(padded: false)
        cells = [titles, *strings].map { |r| r.map { |c| c.gsub("|", "\\|") } }
        widths = columns.each_index.map { |i| padded ? cells.map { |r| r[i].length }.max : 0 }
        line = ->(r) { "| #{r.each_with_index.map { |c, i| pad(c, widths[i], columns[i].align) }.join(" | ")} |\n" }
        line.call(cells.first) + rule(widths, padded) + cells.drop(1).map(&line).join
      end

      def csv
        CSV.generate do |out|
          out << titles
          rows.each { |r| out << r }
        end
      end

      def html
        head = columns.map { |c| "<th#{css(c)}>#{h(c.title)}</th>" }.join
        body = strings.map { |r| "<tr>#{r.each_with_index.map { |v, i| "<td#{css(columns[i])}>#{h(v)}</td>" }.join}</tr>" }
        "<table><thead><tr>#{head}</tr></thead><tbody>#{body.join}</tbody></table>"
      end

      def to_h = { "columns" => titles, "rows" => rows }

      private

      def strings = rows.map { |r| r.map(&:to_s) }

      def aligned(shown, header)
        body = strings.map { |r| r.values_at(*shown) }
        head = header ? [shown.map { |i| columns[i].title }] : []
        widths = shown.each_with_index.map { |_, k| (head + body).map { |r| r[k].length }.max.to_i }
        line = ->(r) { "#{r.each_with_index.map { |c, k| pad(c, widths[k], columns[shown[k]].align) }.join("  ").rstrip}\n" }
        rule = header ? [widths.map { |w| "-" * w }] : []
        (head + rule + body).map(&line).join
      end

      def pad(text, width, align) = align == :left ? text.ljust(width) : text.rjust(width)

      # "| :--- | ---: |", or padded to the columns' widths: "|:-------|------:|".
      def rule(widths, padded)
        marks = columns.each_with_index.map do |c, i|
          dashes = "-" * (padded ? widths[i] + 1 : 3)
          c.align == :left ? ":#{dashes}" : "#{dashes}:"
        end
        padded ? "|#{marks.join("|")}|\n" : "| #{marks.join(" | ")} |\n"
      end

      def css(column) = column.align == :left ? ' class="left"' : ""

      def h(value) = CGI.escapeHTML(value.to_s)
    end
  end
end
