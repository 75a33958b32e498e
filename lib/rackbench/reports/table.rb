# frozen_string_literal: true

module Rackbench
  module Reports
    # The terminal table: the report document (RunDocument: what ran, one
    # block per endpoint with throughput over server starts with its 95 % CI,
    # latency, errors n/tot, memory, CPU, repeats; a mix's members, a rate
    # sweep's curves, the verdicts, failures and warnings) as aligned text.
    # Fits WIDTH columns: lines are folded, and a table drops its optional
    # columns (RunDocument::OPTIONAL) until it does.
    class Table < Base
      WIDTH = 120

      def render
        out = document.heading.map { |l| "#{wrap(l)}\n" }.join
        document.sections.each { |s| out << "\n" << section(s) }
        out
      end

      private

      # "Title" over a table, "Title:" over a list; a blank line between parts.
      def section(section)
        head = section.title && "#{section.title}#{":" if list?(section.parts.first)}\n"
        "#{head}#{section.parts.map { |p| part(p) }.join("\n")}"
      end

      def part(part)
        return part.text(width: WIDTH) if part.is_a?(Grid)

        part.lines.map { |l| "#{wrap(part.list? ? "  - #{l}" : l)}\n" }.join
      end

      def list?(part) = part.is_a?(Document::Text) && part.list?
    end

    register("table", Table)
  end
end
