# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Measurement
    # Each condition that makes figures less trustworthy is a Warning with a
    # kind, a value and advice, raised only past its threshold: the engine's
    # own warnings once each with how many repeats gave them, hypervisor
    # steal, a neighbour still busy, long drains, a wide interval. (Noise,
    # drift and RSS memory: test/results/measurement_test.rb.)
    class WarningsTest < Minitest::Test
      def repeat(rps: 100.0, deployment: 1, noise: nil, drain_s: nil, warnings: [], warning_codes: nil)
        result = Result.new(engine: "native", requests: 1000, duration_s: 1000 / rps, requests_per_s: rps,
                            histogram: [[1000, 1000]], warnings: warnings, warning_codes: warning_codes)
        Repeat.new(index: deployment, deployment: deployment, result: result, noise: noise, drain_s: drain_s,
                   resources: { "pss_max_bytes" => 1_048_576 })
      end

      def warnings(repeats, status: "ok", **options)
        Measurement.new({ "label" => "puma", "status" => status }, repeats, **options).warnings
      end

      def kinds(repeats, **options) = warnings(repeats, **options).map(&:kind)

      def test_a_quiet_measurement_has_no_warnings
        assert_empty warnings([repeat(deployment: 1), repeat(deployment: 2)])
      end

      def test_a_failed_measurement_has_no_warnings_whatever_its_repeats_say
        assert_empty warnings([repeat(noise: { "steal_share" => 0.5 })], status: "failed")
      end

      def test_an_engine_warning_is_said_once_with_the_repeats_that_gave_it_and_its_code
        said = "socket errors: 3 connect"
        coded = [{ "code" => "socket_errors", "count" => 3 }]
        repeats = [repeat(warnings: [said], warning_codes: coded), repeat(warnings: [said, said], warning_codes: coded * 2),
                   repeat]
        engine = warnings(repeats).select { |w| w.kind == "engine" }
        assert_equal ["#{said} (in 2 of 3 repeats)"], engine.map(&:message)
        assert_equal ["socket_errors"], engine.map(&:code)
      end

      def test_hypervisor_steal_warns_above_two_percent_with_the_worst_repeats_share
        assert_empty kinds([repeat(noise: { "steal_share" => 0.02 })]) & ["steal"]
        steal = warnings([repeat(noise: { "steal_share" => 0.01 }), repeat(noise: { "steal_share" => 0.05 })])
                .find { |w| w.kind == "steal" }
        assert_equal 0.05, steal.value
        assert_equal "the hypervisor stole 5.0 % of the measured CPUs' time (worst repeat)", steal.message
      end

      def test_a_neighbour_still_busy_when_a_window_started_is_named_with_its_share
        neighbour = warnings([repeat(noise: { "neighbours_cpu_share" => 0.3 })]).find { |w| w.kind == "neighbours" }
        assert_equal "a server deployed beside this one was still 30 % busy when a window started", neighbour.message
        assert_match "--order sequential", neighbour.advice
      end

      def test_drains_longer_than_a_second_on_average_warn_with_the_mean_wait
        refute_includes kinds([repeat(drain_s: 0.5), repeat(drain_s: 1.4)]), "drain", "a mean of 0.95 s is within"
        drain = warnings([repeat(drain_s: 1.0), repeat(drain_s: 2.0)]).find { |w| w.kind == "drain" }
        assert_equal 1.5, drain.value
      end

      def test_an_interval_wider_than_the_target_says_its_width_and_where_the_spread_comes_from
        wide = [repeat(rps: 50.0, deployment: 1), repeat(rps: 200.0, deployment: 2), repeat(rps: 100.0, deployment: 3)]
        spread = warnings(wide, precision: 0.05).find { |w| w.kind == "spread" }
        assert_match(%r{\Athroughput interval from 1/\d+\.\d to \d+\.\d times the figure after 3 server starts \(3 windows; },
                     spread.message)
        assert_operator spread.value, :>, 1, "wider than the figure itself"
        assert_empty kinds([repeat(rps: 100.0, deployment: 1), repeat(rps: 101.0, deployment: 2),
                            repeat(rps: 100.5, deployment: 3)], precision: 0.05) & ["spread"]
      end
    end
  end
end
