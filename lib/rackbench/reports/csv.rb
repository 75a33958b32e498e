# frozen_string_literal: true

require "csv"

module Rackbench
  module Reports
    # CSV: one line per cell, every column of the table plus the status and reason.
    class Csv < Base
      def render
        keys = ["endpoint", *COLUMNS.map(&:first), "status", "reason"]
        CSV.generate do |csv|
          csv << keys
          sections.each { |endpoint, rows| rows.each { |r| csv << keys.map { |k| k == "endpoint" ? endpoint : r[k] } } }
        end
      end
    end

    register("csv", Csv)
  end
end
