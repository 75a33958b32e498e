# frozen_string_literal: true

module Rackbench
  module Reports
    # The report document (RunDocument) as GitHub markdown: what ran, then
    # each section under a heading: a table per endpoint with the figures
    # and CIs, a mix's members, a rate sweep's curves, the verdicts,
    # failures once per server, and warnings.
    #
    #   Markdown.write(document)  # any Document (compare's too) as markdown
    class Markdown < Base
      def render = self.class.write(document)

      def self.write(document)
        out = document.heading.map { |l| "#{l}  \n" }.join
        document.sections.each do |s|
          out << "\n"
          out << "#### #{s.title}\n\n" if s.title
          out << s.parts.map { |p| part(p) }.join("\n")
        end
        out
      end

      def self.part(part)
        return part.markdown if part.is_a?(Grid)

        case part.style
        when :list then part.lines.map { |l| "- #{l}\n" }.join
        when :strong then part.lines.map { |l| "**#{l}**\n" }.join
        else "#{part.lines.join("  \n")}\n"
        end
      end
      private_class_method :part
    end

    register("markdown", Markdown)
  end
end
