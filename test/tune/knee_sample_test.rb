# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # K independent knee searches against fake deployments whose knee is
    # known: each deployment's knee is the true knee times a lognormal draw
    # (a fresh start is faster or slower), and a probe misses clearly above
    # it. Unit tests: no server, a probe is a function of the rate.
    class KneeSampleTest < Minitest::Test
      SLO = Slo.parse("p99<=100ms")
      TRUE_KNEE = 300.0

      def repeat(rate, over)
        requests = (rate * 2).round
        slow = (requests * over).round
        window = { "total" => requests, "completed" => requests, "censored" => 0, "failed" => 0,
                   "histogram" => [[20_000, requests - slow], [500_000, slow]].reject { |_, c| c.zero? },
                   "censored_histogram" => [] }
        result = Result.new(engine: "native", requests: requests, duration_s: 2.0, requests_per_s: rate,
                            histogram: window["histogram"], window_requests: window)
        Measurement::Repeat.new(index: 1, deployment: 1, result: result, resources: { "pss_max_bytes" => 50 << 20 })
      end

      # A deployment with its own knee, spread by `spread` on the log scale.
      def deployments(noise, spread)
        lambda do |_number|
          normal = Math.sqrt(-2 * Math.log(1 - noise.rand)) * Math.cos(2 * Math::PI * noise.rand)
          limit = TRUE_KNEE * Math.exp(spread * normal)
          ->(rate) { repeat(rate, rate <= limit ? 0.0 : 0.5) }
        end
      end

      def tune(seed, searches: 3, spread: 0.1, noise: Random.new(seed))
        KneeSample.search(slo: SLO, searches: searches, random: Random.new(seed), deploy: deployments(noise, spread),
                          estimate: -> { 400.0 })
      end

      def test_the_interval_from_three_searches_covers_the_true_knee_at_about_its_stated_level
        samples = Array.new(400) { |seed| tune(seed) }
        intervals = samples.filter_map(&:interval)
        assert_operator intervals.size, :>=, 380, "nearly every tune confirms two searches or more"
        covered = intervals.count { |i| TRUE_KNEE.between?(i.low, i.high) }.fdiv(intervals.size)
        level = intervals.first.level
        assert_operator covered, :>=, level - 0.07, "coverage #{covered.round(3)} of a #{level} interval"
        assert_operator covered, :<=, 0.995, "coverage #{covered.round(3)}: the interval is not needlessly wide"
      end

      # A miss a fresh start does not repeat steps the knee up, as a pass it
      # does not repeat steps it down: starts that differ by 20 % do not pull
      # the reported knee down (when only passes were confirmed its median
      # fell to 0.84 of the true knee; a met rate sits up to one step of the
      # search's resolution below it).
      def test_the_reported_knee_stays_within_the_searchs_resolution_as_starts_spread
        rates = Array.new(200) { |seed| tune(seed, spread: 0.2).rate }.compact.sort
        assert_operator rates[rates.size / 2], :>=, TRUE_KNEE / (1 + Knee::RESOLUTION), rates.inspect
      end

      # A config whose closed-loop capacity is below the screen's bar (a
      # share of the leader's knee) is screened out, its capacity measured
      # twice so that one starved second does not screen it out; above the
      # bar, it is not, and its search starts from that capacity.
      def test_a_capacity_below_the_bar_on_two_estimates_is_screened_out_and_one_above_is_searched_from_it
        estimates = [150.0, 180.0]
        sample = KneeSample.screen(estimate: -> { estimates.shift }, below: 200.0)
        assert_predicate sample, :screened?
        assert_equal [180.0, nil, 0], [sample.capacity_rps, sample.rate, sample.searches]
        above = KneeSample.screen(estimate: -> { 400.0 }, below: 200.0)
        refute_predicate above, :screened?
        searched = KneeSample.search(slo: SLO, searches: 1, random: Random.new(1), estimate: -> { flunk "estimated again" },
                                     deploy: deployments(Random.new(1), 0.0), from: above)
        assert_operator searched.rate, :>, 200.0
        assert_equal 400.0, searched.capacity_rps
      end

      def test_the_reported_knee_is_a_rate_met_in_a_searchs_confirming_probes
        20.times do |seed|
          sample = tune(seed)
          next unless sample.rate

          confirming = sample.knee.probes.select { |p| p.deployment == 2 && p.decision == :met }.map(&:rate)
          assert_includes confirming, sample.rate
          assert_equal sample.rate, sample.confirmed.map(&:rate).sort[(sample.confirmed.size - 1) / 2], "the lower median"
        end
      end

      # The met rate can sit below the interval of the searches' bracket
      # centres; what every format prints never shows a knee outside it.
      def test_no_printed_knee_lies_outside_its_printed_interval
        texts = Array.new(400) { |seed| tune(seed) }.select(&:interval).map do |sample|
          Reports::TuneAnswer.rate_text(sample.rate, sample.interval.to_a, sample.searches)
        end
        apart = texts.grep(/\Asustains/)
        refute_empty apart, "some met rates fall below their interval, and are said apart"
        texts.grep(/\Aknee/).each do |text|
          knee, low, high = text.match(%r{\Aknee (\d+) req/s \[(\d+), (\d+)\]}).captures.map(&:to_i)
          assert knee.between?(low, high), text
        end
        apart.each do |text|
          rate, low = text.match(%r{\Asustains (\d+) req/s; knee \[(\d+),}).captures.map(&:to_i)
          assert_operator rate, :<, low, text
        end
      end

      def test_more_searches_give_a_narrower_interval
        width = ->(searches) { Array.new(100) { |s| tune(s, searches: searches).interval }.compact.sum { |i| i.high / i.low } }
        assert_operator width.call(5), :<, width.call(2)
      end

      def test_a_config_with_fewer_than_two_confirmed_searches_has_no_knee_and_says_so
        # Every confirming deployment (the even ones) is far slower than the
        # one that searched: no confirmation holds.
        deploy = lambda do |number|
          limit = number.odd? ? TRUE_KNEE : 10.0
          ->(rate) { repeat(rate, rate <= limit ? 0.0 : 0.5) }
        end
        sample = KneeSample.search(slo: SLO, searches: 3, random: Random.new(1), deploy: deploy, estimate: -> { 400.0 })
        assert_nil sample.rate
        assert_nil sample.interval
        assert_predicate sample, :unconfirmed?
        assert_equal 3, sample.searches
      end

      def test_each_search_starts_on_its_own_deployments_at_its_own_offset
        numbers = []
        deploy = deployments(Random.new(3), 0.0)
        KneeSample.search(slo: SLO, searches: 3, random: Random.new(3), deploy: ->(n) { numbers << n and deploy.call(n) },
                          estimate: -> { 400.0 })
        assert_equal [1, 2, 3, 4, 5, 6], numbers
        starts = tune(3, spread: 0.0).knees.map { |k| k.probes.first.rate }
        assert_equal starts.uniq, starts, "no two searches begin on the same rate"
      end
    end
  end
end
