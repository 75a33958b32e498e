# frozen_string_literal: true

module Rackbench
  module Reports
    # The terminal table: the report document (RunDocument: what ran, one
    # block per endpoint with throughput over server starts with its 95 % CI,
    # latency, errors n/tot, memory, CPU, repeats; a mix's members, a rate
    # sweep's curves, the verdicts, failures and warnings) as aligned text.
    # Fits WIDTH columns: lines are folded, and a table drops its optional
    # columns (RunDocument::OPTIONAL) until it does.
    #
    #   Table.write(document)  # any Document (compare's too) as this text
    class Table < Base
      WIDTH = 120

      def render = self.class.write(document)

      def self.write(document)
        out = document.heading.map { |l| "#{Words.wrap(l)}\n" }.join
        document.sections.each { |s| out << "\n" << section(s) }
        out
      end

      # "Title" over a table, "Title:" over a list; a blank line between parts.
      def self.section(section)
        head = section.title && "#{section.title}#{":" if list?(section.parts.first)}\n"
        "#{head}#{section.parts.map { |p| part(p) }.join("\n")}"
      end

      def self.part(part)
        return part.text(width: WIDTH) if part.is_a?(Grid)

        part.lines.map { |l| "#{Words.wrap(part.list? ? "  - #{l}" : l)}\n" }.join
      end

      def self.list?(part) = part.is_a?(Document::Text) && part.list?
      private_class_method :section, :part, :list?
    end

    register("table", Table)
  end
end
