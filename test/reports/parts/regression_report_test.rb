# frozen_string_literal: true

require "test_helper"
require "json"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # compare's report is a Document like a run's: the same formats write it,
    # and json keeps compare's own keys beside the document.
    class RegressionReportTest < Minitest::Test
      include SeedFixtures

      PUMA = { "server" => "puma", "threads" => 4 }.freeze

      def report(current_rps)
        baseline = [cell("puma x0:4", PUMA, endpoint: "work", concurrency: 4, rps: 40.0)]
        current = [cell("puma x0:4", PUMA, endpoint: "work", concurrency: 4, rps: current_rps)]
        RegressionReport.new(Regression.new(baseline, current), { "id" => 1, "suite" => "a" }, { "id" => 2, "suite" => "b" })
      end

      def test_a_four_times_slower_run_reads_regressed_in_every_format
        slower = report(10.0)
        assert_match(/\ARun 2 \(b\) against baseline run 1 \(a\): good_requests_per_s, regression threshold 5.0 %\n/,
                     slower.table)
        assert_match(/^puma x0:4 +work +4 +40\.0 \[[\d., ]+\] +10\.0 \[[\d., ]+\] +-75\.0 % \[[-\d., ]+\] +regressed$/,
                     slower.table)
        assert_match(/^REGRESSED: at least one cell/, slower.table)
        assert_match(/^\| puma x0:4 \| work \| 4 \| 40\.0 \[/, slower.markdown)
        assert_includes slower.markdown, "REGRESSED: at least one cell"
      end

      def test_json_has_the_figures_as_numbers_and_the_document
        data = JSON.parse(report(10.0).json)
        assert data["regressed"]
        cell = data["cells"].first
        assert_in_delta 40.0, cell["baseline"], 0.01
        assert_in_delta 10.0, cell["current"], 0.01
        assert_equal "regressed", cell["outcome"]
        assert_equal(%w[comparison gate], data["report"]["sections"].map { |s| s["id"] })
        assert_equal data["cells"], data["report"]["sections"].first["data"], "the section's data is the cells' figures"
      end

      def test_alike_runs_say_no_significant_regression
        alike = report(40.0)
        assert_equal ["No significant regression."], alike.document.lines_of("gate")
        refute JSON.parse(alike.json)["regressed"]
      end
    end
  end
end
