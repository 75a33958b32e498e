# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # The rate search against fake servers whose tail crosses the SLO at a
    # known rate (unit tests: each probe is a function of the rate).
    class KneeTest < Minitest::Test
      SLO = Slo.parse("p99<=100ms")

      # A 2 s probe at rate whose requests are over the bound in share `over` (0..1).
      def repeat(rate, over, requests: (rate * 2).round)
        slow = (requests * over).round
        fast = requests - slow
        window = { "total" => requests, "completed" => requests, "censored" => 0, "failed" => 0,
                   "histogram" => [[20_000, fast], [500_000, slow]].reject { |_, c| c.zero? }, "censored_histogram" => [] }
        result = Result.new(engine: "native", requests: requests, duration_s: 2.0, requests_per_s: rate,
                            histogram: window["histogram"], window_requests: window)
        Measurement::Repeat.new(index: 1, deployment: 1, result: result, resources: { "pss_max_bytes" => 50 << 20 })
      end

      # A server whose p99 holds up to limit req/s.
      def server(limit) = ->(rate) { repeat(rate, rate <= limit ? 0.0 : 0.5) }

      def decided(knee, decision) = knee.probes.select { |p| p.decision == decision }.map { |p| [p.deployment, p.rate] }

      def test_the_knee_is_a_rate_that_met_and_its_interval_reaches_the_first_that_missed
        knee = Knee.new(slo: SLO, probe: server(300.0)).search(200.0).confirm(server(300.0))
        assert_operator knee.rate, :<=, 300.0
        assert_operator knee.rate, :>, 300.0 / Knee::GROWTH, "bisection closes in on the limit"
        assert_includes decided(knee, :met), [1, knee.rate], "met on the first deployment"
        assert_includes decided(knee, :met), [2, knee.rate], "and again on a fresh one"
        assert_equal knee.rate, knee.interval.low
        assert_operator knee.interval.high, :>, 300.0, "the interval reaches the lowest rate that missed"
        assert_includes decided(knee, :missed).map(&:last), knee.interval.high
        assert_operator knee.interval.high / knee.interval.low, :<=, 1 + (2 * Knee::RESOLUTION)
      end

      # The old search reported 0.81 x the last good rate after two failed
      # confirmations, a rate it never probed. Now a slower fresh deployment
      # steps the knee down to a rate probed and met there.
      def test_a_slower_fresh_deployment_steps_the_knee_down_to_a_rate_it_met
        knee = Knee.new(slo: SLO, probe: server(300.0)).search(200.0)
        found = knee.rate
        knee.confirm(server(found * 0.85))
        assert_operator knee.rate, :<, found
        assert_includes decided(knee, :met), [2, knee.rate], "the knee was probed and met on the fresh deployment"
        assert_includes decided(knee, :missed), [2, found], "where the first deployment met it, the second missed"
        missed_above = decided(knee, :missed).map(&:last).select { |r| r > knee.rate }
        assert_equal missed_above.min, knee.interval.high, "the knee now lies below the lowest rate missed above it"
        assert_operator knee.interval.high, :<=, found
      end

      # A miss is confirmed like a pass: where the fresh deployment meets
      # the rate the first one missed, the knee steps up to a rate it met,
      # and the fresh deployment's bracket is where this search puts it.
      def test_a_faster_fresh_deployment_steps_the_knee_up_to_a_rate_it_met
        knee = Knee.new(slo: SLO, probe: server(250.0)).search(200.0)
        first_high = knee.high
        knee.confirm(server(320.0))
        assert_operator knee.rate, :>, first_high, "above the rate the first deployment missed"
        assert_operator knee.rate, :<=, 320.0
        assert_includes decided(knee, :met), [2, first_high], "the fresh deployment met what the first missed"
        assert_includes decided(knee, :met), [2, knee.rate]
        assert_includes decided(knee, :missed), [2, knee.interval.high], "and missed the next step up"
        assert_equal [knee.rate, knee.interval.high], knee.found
      end

      def test_a_knee_no_fresh_deployment_meets_is_not_confirmed
        knee = Knee.new(slo: SLO, probe: server(300.0)).search(200.0).confirm(server(10.0))
        assert_nil knee.rate
        assert knee.unconfirmed?
        assert_nil knee.interval
      end

      # One noisy probe decides nothing: an unclear share is probed again
      # and pooled, a miss as much as a pass.
      def test_an_unclear_miss_is_probed_again_like_an_unclear_pass
        shares = { 100.0 => [0.015, 0.0, 0.0] } # 1.5 % over once (a hiccup), then clean
        probe = lambda do |rate|
          over = shares.fetch(rate) { [rate <= 100 ? 0.0 : 0.5] }
          repeat(rate, over.size > 1 ? over.shift : over.first, requests: 1000)
        end
        knee = Knee.new(slo: SLO, probe: probe)
        knee.send(:decide, 100.0)
        at = knee.probes
        assert_equal [false, true, true], at.map(&:met), "the first probe alone missed, the others alone met"
        assert_equal [nil, nil, :met], at.map(&:decision), "15 over 1,000 is unclear, so is 15 over 2,000; 15 over 3,000 is not"
      end

      def test_too_few_requests_for_the_percentile_decide_nothing_until_pooled
        probe = ->(rate) { repeat(rate, 0.0, requests: 100) }
        knee = Knee.new(slo: SLO, probe: probe)
        knee.send(:decide, 50.0)
        assert_equal [nil, nil, :met], knee.probes.map(&:decision),
                     "100 clean requests cannot show a 1 % tail; three probes pooled decide by their share"
      end

      def test_a_clear_miss_needs_no_second_probe
        knee = Knee.new(slo: SLO, probe: ->(rate) { repeat(rate, 0.5, requests: 100) })
        knee.send(:decide, 50.0)
        assert_equal [:missed], knee.probes.map(&:decision)
      end

      def test_requests_left_without_a_response_count_over_the_bound
        window = { "total" => 1000, "completed" => 900, "censored" => 100, "histogram" => [[20_000, 900]],
                   "censored_histogram" => [[3_000_000, 100]] }
        result = Result.new(engine: "native", requests: 900, histogram: [[20_000, 900]], window_requests: window)
        assert_equal [100, 1000], SLO.tally(result)
        refute SLO.met?(result), "their completed responses alone would meet p99 <= 100 ms"
      end

      def test_a_server_that_fails_even_slowly_has_no_knee
        knee = Knee.new(slo: SLO, probe: server(0.0)).search(100.0)
        assert_nil knee.rate
        refute knee.unconfirmed?
        assert_operator knee.probes.size, :<=, Knee::MAX_PROBES
      end

      def test_a_probe_that_measured_nothing_counts_as_a_miss_and_keeps_its_reason
        probe = lambda do |rate|
          raise Knee::Failed, "no request completed" if rate > 50

          repeat(rate, 0.0, requests: 1000)
        end
        knee = Knee.new(slo: SLO, probe: probe).search(60.0)
        assert_operator knee.rate, :<=, 50
        assert_match(/\Ano request completed( \(\d+x\))?\z/, knee.failures.first)
      end
    end
  end
end
