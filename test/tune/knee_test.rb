# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # The rate search against a fake server whose p99 crosses the SLO at a
    # known rate (a unit test: the probe is a function of the rate).
    class KneeTest < Minitest::Test
      def repeat_at(rate, limit)
        latency_us = rate <= limit ? 20_000 : 500_000
        result = Result.new(engine: "native", requests: (rate * 2).round, duration_s: 2.0, requests_per_s: rate,
                            histogram: [[latency_us, (rate * 2).round]])
        Measurement::Repeat.new(index: 1, deployment: 1, result: result, resources: { "pss_max_bytes" => 50 << 20 })
      end

      def test_the_knee_lies_between_the_last_rate_that_held_and_the_first_that_did_not
        slo = Slo.parse("p99<=100ms")
        knee = Knee.new(slo: slo, probe: ->(rate) { repeat_at(rate, 300.0) }).search(200.0)
        assert_operator knee.rate, :<=, 300.0
        assert_operator knee.rate, :>, 300.0 / Knee::GROWTH, "bisection closes in on the limit"
        assert_operator knee.at_knee.size, :>=, Knee::CONFIRMATIONS, "the knee is confirmed by more probes"
        assert knee.ci, "the confirmations give an interval"
      end

      def test_a_server_that_fails_even_slowly_has_no_knee
        slo = Slo.parse("p99<=100ms")
        knee = Knee.new(slo: slo, probe: ->(rate) { repeat_at(rate, 0.0) }).search(100.0)
        assert_nil knee.rate
        assert_operator knee.probes.size, :<=, Knee::MAX_PROBES
      end

      def test_a_probe_that_measured_nothing_counts_as_a_miss_and_keeps_its_reason
        slo = Slo.parse("p99<=100ms")
        probe = lambda do |rate|
          raise Knee::Failed, "no request completed" if rate > 50

          repeat_at(rate, 1000.0)
        end
        knee = Knee.new(slo: slo, probe: probe).search(60.0)
        assert_operator knee.rate, :<=, 50
        assert_match(/\Ano request completed( \(\d+x\))?\z/, knee.failures.first)
      end
    end

    class SloTest < Minitest::Test
      def test_a_percentile_bound_with_its_unit_and_an_error_bound
        slo = Slo.parse("p999<=1.5s,errors<=1%")
        assert_equal [99.9, 1_500_000, 0.01], [slo.percentile, slo.latency_us, slo.error_share]
        assert_equal 0.001, Slo.parse("p99<=100ms").error_share
      end

      def test_anything_else_is_one_clear_error
        error = assert_raises(ConfigError) { Slo.parse("p98<=100ms") }
        assert_match "--slo: cannot read \"p98<=100ms\"", error.message
        assert_raises(ConfigError) { Slo.parse("errors<=1%") }
      end
    end
  end
end
