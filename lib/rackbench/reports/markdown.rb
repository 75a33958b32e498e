# frozen_string_literal: true

module Rackbench
  module Reports
    # Markdown: one table per endpoint, with the run's provenance above them.
    class Markdown < Base
      def render
        out = heading.map { |l| "#{l}  \n" }.join
        sections.each do |endpoint, rows|
          out << "\n#### #{endpoint}\n\n"
          out << "| #{COLUMNS.map(&:last).join(" | ")} |\n"
          out << "| :--- |#{" ---: |" * (COLUMNS.size - 1)}\n"
          rows.each { |r| out << "| #{COLUMNS.map { |k, _| fmt(r[k]) }.join(" | ")} |\n" }
        end
        failures.each { |c| out << "\n- FAILED #{c["label"]} #{c["endpoint"]}: #{c["reason"]}\n" }
        out
      end
    end

    register("markdown", Markdown)
  end
end
