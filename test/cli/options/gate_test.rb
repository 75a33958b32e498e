# frozen_string_literal: true

require "test_helper"
require "optparse"
require "json"
require_relative "../../reports/seed_fixtures"

module Rackbench
  module CLI
    class GateTest < Minitest::Test
      include SeedFixtures

      # A regression's findings, as Gate#status reads them.
      Findings = Struct.new(:regressed?, :not_compared?, :inconclusive?, keyword_init: true)

      def gate_parsing(*argv)
        gate = Gate.new
        OptionParser.new { |o| gate.define(o) }.parse!(argv)
        gate
      end

      def test_a_regression_outranks_a_cell_that_could_not_be_compared
        findings = Findings.new(regressed?: true, not_compared?: true, inconclusive?: true)
        assert_equal Gate::REGRESSED, gate_parsing("--strict").status(findings)
      end

      def test_a_cell_that_could_not_be_compared_fails_the_gate_closed
        findings = Findings.new(regressed?: false, not_compared?: true, inconclusive?: true)
        assert_equal Gate::NOT_COMPARED, gate_parsing.status(findings)
      end

      def test_an_inconclusive_cell_fails_only_with_strict
        findings = Findings.new(regressed?: false, not_compared?: false, inconclusive?: true)
        assert_equal 0, gate_parsing.status(findings)
        assert_equal Gate::INCONCLUSIVE, gate_parsing("--strict").status(findings)
      end

      def test_the_threshold_reads_a_percentage_or_a_share
        assert_in_delta 0.1, gate_parsing("--threshold", "10%").threshold, 1e-12
        assert_in_delta 0.1, gate_parsing("--threshold", "0.1").threshold, 1e-12
        assert_in_delta Gate::DEFAULT_THRESHOLD, gate_parsing.threshold, 1e-12
      end

      def test_a_threshold_outside_zero_to_one_is_refused_naming_the_option_and_value
        error = assert_raises(ConfigError) { gate_parsing("--threshold", "150%") }
        assert_match(/--threshold .* got 150%/, error.message)
        error = assert_raises(ConfigError) { gate_parsing("--threshold", "ten") }
        assert_match(/got "ten"/, error.message)
      end

      def test_an_unknown_metric_is_refused_before_anything_runs
        assert_raises(ConfigError) { gate_parsing("--metric", "speediness") }
        assert_equal "p99", gate_parsing("--metric", "p99").metric
      end

      def test_compare_and_ab_print_the_format_asked_the_summary_for_markdown
        puma = { "server" => "puma", "threads" => 4 }
        regression = Regression.new([cell("puma x0:4", puma, rps: 40.0)], [cell("puma x0:4", puma, rps: 10.0)])
        runs = [{ "id" => 1, "suite" => "a" }, { "id" => 2, "suite" => "a" }]
        printed = %w[table markdown json].to_h do |format|
          gate = Gate.new
          OptionParser.new { |o| gate.define_format(o) }.parse!(["--format", format])
          [format, gate.report(regression, *runs, command: "compare")]
        end
        assert_equal Reports::RegressionReport.new(regression, *runs).table, printed["table"]
        assert_equal Reports::GateSummary.new(regression, *runs, status: Gate::REGRESSED, command: "compare").markdown,
                     printed["markdown"]
        assert JSON.parse(printed["json"])["regressed"]
      end
    end
  end
end
