# frozen_string_literal: true

module Rackbench
  module Reports
    # A report built once, before any format writes it: what ran (heading
    # lines), then sections, each an id, a title (or none), parts: Grids
    # (the one table writer) and Text (lines, a list, or a line to stress),
    # and, where its tables show figures as text ("202.8 = 152.3 + 50.3 +
    # 0.00"), data: the same figures as numbers (json carries them). The
    # table, markdown, csv, json and html formats serialize the same Document
    # (RunDocument builds a run's), so a section added here shows in each of
    # them at once; svg writes the charts.
    #
    #   doc = Document.new(["Run 7: suite quick (finished, ...)"])
    #   doc.sections << Document::Section.new("results", "/hello", [Grid.new(headers, rows)])
    #   doc.sections << Document::Section.new("warnings", "Warnings", [Document::Text.list(["CV 12 % ..."])])
    #   doc.sections << Document::Section.new("explain", "Why", [grid], [{ "label" => "puma", "p50" => {...} }])
    class Document
      Section = Struct.new(:id, :title, :parts, :data) do
        def to_h
          parts_h = parts.map { |p| p.is_a?(Grid) ? { "table" => p.to_h } : p.to_h }
          { "id" => id, "title" => title, "parts" => parts_h, **(data ? { "data" => data } : {}) }
        end
      end

      # style: :plain (lines), :list (one item a line) or :strong (a line to stress).
      Text = Struct.new(:lines, :style) do
        def self.plain(*lines) = new(lines, :plain)
        def self.list(items) = new(items, :list)
        def self.strong(line) = new([line], :strong)

        def list? = style == :list
        def to_h = { "lines" => lines, "style" => style.to_s }
      end

      # The sections that answer a run's question (the tune answer, the
      # verdicts, the cells not measured, the warnings): a format that leads
      # with the answer (html) writes these first, the others after.
      SUMMARY = %w[tune verdicts failures warnings].freeze

      attr_reader :heading, :sections

      def initialize(heading, sections = [])
        @heading = heading
        @sections = sections
      end

      def section(id) = sections.find { |s| s.id == id }
      def summary = sections.select { |s| SUMMARY.include?(s.id) }
      def details = sections.reject { |s| SUMMARY.include?(s.id) }

      # The lines of the section id's Text parts ([] without that section).
      def lines_of(id) = (section(id)&.parts || []).grep(Text).flat_map(&:lines)
      def to_h = { "heading" => heading, "sections" => sections.map(&:to_h) }
    end
  end
end
