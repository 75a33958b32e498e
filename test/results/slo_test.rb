# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A tune's --slo and a suite's slo: read one way: a percentile bound with
  # its unit and an error bound, the requests a decision on it needs, and
  # one clear error for anything else.
  class SloTest < Minitest::Test
    def test_a_percentile_bound_with_its_unit_and_an_error_bound
      slo = Slo.parse("p999<=1.5s,errors<=1%")
      assert_equal [99.9, 1_500_000, 0.01], [slo.percentile, slo.latency_us, slo.error_share]
      assert_equal 0.001, Slo.parse("p99<=100ms").error_share
    end

    def test_a_decision_needs_more_requests_as_the_percentile_rises
      needed = %w[p50 p90 p99 p999].map { |p| Slo.parse("#{p}<=1s").requests_needed }
      assert_equal [20, 100, 1000, 10_000], needed
    end

    def test_anything_else_is_one_clear_error
      error = assert_raises(ConfigError) { Slo.parse("p98<=100ms") }
      assert_match "--slo: cannot read \"p98<=100ms\"", error.message
      assert_raises(ConfigError) { Slo.parse("errors<=1%") }
    end
  end
end
