# frozen_string_literal: true

module Rackbench
  module Reports
    # The table as GitHub markdown: what ran, a table per endpoint with the
    # medians and CIs, the verdicts, failures once per server, and warnings.
    class Markdown < Base
      def render
        out = heading.map { |l| "#{l}  \n" }.join
        out << TuneAnswer.new(run).markdown
        sections.each do |endpoint, rows|
          out << "\n#### #{endpoint}\n\n"
          out << "| #{COLUMNS.map(&:last).join(" | ")} |\n"
          out << "| :--- |#{" ---: |" * (COLUMNS.size - 1)}\n"
          rows.each { |r| out << "| #{COLUMNS.map { |k, _| fmt(r[k]).gsub("|", "\\|") }.join(" | ")} |\n" }
        end
        out << RateSweep.new(cells).markdown
        list = verdicts
        out << "\n**#{VERDICTS_HEADING}**\n\n" unless list.empty?
        list.each { |v| out << "- #{v["text"]}\n" }
        out << "\n#{verdicts_note}\n" unless list.empty?
        out << "\n" unless failures.empty?
        failure_lines.each { |l| out << "- #{l}\n" }
        found = warnings
        out << "\n**Warnings**\n\n" << found.map { |w| "- #{w}\n" }.join unless found.empty?
        out
      end
    end

    register("markdown", Markdown)
  end
end
