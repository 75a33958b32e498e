# frozen_string_literal: true

require "test_helper"
require "optparse"

module Rackbench
  module CLI
    class GateTest < Minitest::Test
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
    end
  end
end
