# frozen_string_literal: true

module Rackbench
  module Tune
    # The highest open-loop rate at which a config meets the SLO, and where
    # its knee lies. On a first deployment: start from half of a closed-loop
    # estimate, grow the offered rate until the SLO breaks, bisect between the
    # last rate that held and the first that did not. On a fresh deployment
    # (#confirm): the rate that held and the one that broke again, stepping
    # down while the held rate now misses. Latency is measured from each
    # request's scheduled send time (the native engine's open loop), so a
    # queueing server shows.
    #
    #   knee = Knee.new(slo: slo, probe: ->(rate) { window.measure(...) }).search(estimate_rps)
    #   knee.confirm(->(rate) { ...on a fresh deployment... })
    #   knee.rate       # a rate probed on every deployment and met there; nil: no knee, or not confirmed
    #   knee.interval   # where the knee lies: [rate, the lowest rate above it that missed]
    #   (a probe returns a Measurement::Repeat, or raises Knee::Failed when
    #   nothing was measured: a miss, with its reason kept)
    #
    # Each decision at a rate weighs the requests of its probes: how many
    # exceeded the SLO's latency bound (requests left without a response
    # count as exceeding), against the share the percentile allows (1 % for
    # p99). A pass and a miss are treated alike: either must be clear (a 90 %
    # Wilson interval of the share wholly on one side); an unclear rate is
    # probed again and its requests pooled, and after TRIES probes the pooled
    # share decides. The probes themselves are long enough for the
    # percentile (Slo#requests_needed, Tuner).
    class Knee
      Probe = Struct.new(:rate, :repeat, :met, :error, :deployment, :decision, keyword_init: true)

      # A probe that measured nothing (a stalled server, a drain that never came).
      class Failed < StandardError; end

      GROWTH = 1.5
      BISECT_STEPS = 2
      MIN_RATE = 1.0
      MAX_PROBES = 14
      TRIES = 3
      Z = 1.645 # a two-sided 90 % Wilson interval
      CONFIRM_STEPS = 6
      # How close two sustainable rates can be and still be told apart: the
      # bracket's step after the bisection (1.5^(1/4) - 1, about 11 %).
      RESOLUTION = (GROWTH**(1.0 / (2**BISECT_STEPS))) - 1
      # Kept for callers that counted confirmations: every rate is now confirmed alike.
      CONFIRMATIONS = TRIES

      attr_reader :probes, :rate, :high, :deployments

      def initialize(slo:, probe:)
        @slo = slo
        @probe = probe
        @probes = []
        @decisions = {} # [deployment, rate] => :met / :missed
        @deployments = 1
      end

      # From half of a closed-loop estimate of the capacity.
      def search(estimate_rps) = search_from(estimate_rps / 2.0)

      # From start_rps: the bracket's first rate.
      def search_from(start_rps)
        good, bad = bracket([start_rps, MIN_RATE].max)
        @high = bad
        return self unless good

        BISECT_STEPS.times do
          break unless bad && bad / good > 1.1 && @probes.size < MAX_PROBES

          mid = (Math.sqrt(good * bad) * 10).round / 10.0
          decide(mid) == :met ? good = mid : bad = mid
        end
        @rate = good
        @high = bad
        @found = [good, bad]
        self
      end

      # Where the search puts the knee: [the last rate met, the first missed
      # above it (nil: none)]; nil when no rate met. The first deployment's
      # bracket, unless the fresh one (#confirm) disagreed with it: then the
      # fresh deployment's.
      attr_reader :found

      # The rate that held and the one that broke, again on a fresh
      # deployment, a pass and a miss alike: the knee steps down (by
      # RESOLUTION) while the held rate misses there, and up while the rate
      # that broke is met there (CONFIRM_STEPS at most, either way); where
      # it stepped, the fresh deployment's bracket is the search's. A knee
      # that no step down confirms leaves none (unconfirmed? true).
      def confirm(probe)
        return self unless @rate

        @probe = probe
        @deployments += 1
        found = @rate
        step_down
        step_up if @rate && @high && decide(@high) == :met
        @found = [@rate, @high] if @rate && @rate != found
        @unconfirmed = @rate.nil?
        self
      end

      # A knee the search found but a fresh deployment did not meet again.
      def unconfirmed? = @unconfirmed == true

      # Where the knee lies: from the rate met on every deployment to the
      # lowest rate above it missed on any (nil high: none missed above it).
      def interval
        return nil unless @rate

        misses = @decisions.select { |(_, r), d| d == :missed && r > @rate }.map { |(_, r), _| r }
        Stats::Interval.new(@rate, misses.min, @rate, nil)
      end

      alias ci interval

      # The probes at the knee's rate that met the SLO: what its latency and memory are read from.
      def at_knee
        return [] unless @rate

        @probes.select { |p| p.rate == @rate && p.repeat && p.met }
      end

      # Why probes measured nothing, most frequent first ("" when none failed).
      def failures = @probes.filter_map(&:error).tally.sort_by { |_, n| -n }.map { |e, n| n > 1 ? "#{e} (#{n}x)" : e }

      def knee_repeat = at_knee.max_by { |p| p.repeat.resources["pss_max_bytes"].to_i }&.repeat

      private

      # From the held rate down, by RESOLUTION, to the first the fresh deployment meets.
      def step_down
        candidate = @rate
        @rate = nil
        CONFIRM_STEPS.times do
          return @rate = candidate if decide(candidate) == :met

          @high = candidate
          candidate = (candidate / (1 + RESOLUTION) * 10).round / 10.0
          return if candidate < MIN_RATE
        end
      end

      # From the rate that broke (met on the fresh deployment) up, by
      # RESOLUTION, to the first the fresh deployment misses (none: no high).
      def step_up
        @rate = @high
        CONFIRM_STEPS.times do
          @high = (@rate * (1 + RESOLUTION) * 10).round / 10.0
          return if decide(@high) == :missed

          @rate = @high
        end
        @high = nil
      end

      # [last rate that met the SLO, first that did not] by geometric growth
      # (or shrinking, when even the first rate fails).
      def bracket(start)
        rate = start.round(1)
        if decide(rate) == :met
          while @probes.size < MAX_PROBES
            higher = (rate * GROWTH).round(1)
            return [rate, higher] unless decide(higher) == :met

            rate = higher
          end
          return [rate, nil]
        end
        while rate > MIN_RATE && @probes.size < MAX_PROBES
          lower = [rate / (GROWTH * GROWTH), MIN_RATE].max.round(1)
          return [lower, rate] if decide(lower) == :met

          rate = lower
        end
        [nil, rate]
      end

      # The decision at rate on the current deployment: probes until clear, or TRIES.
      def decide(rate)
        key = [@deployments, rate]
        return @decisions[key] if @decisions.key?(key)

        here = []
        loop do
          here << run(rate)
          decision = verdict(here)
          next unless decision

          here.last.decision = decision
          return @decisions[key] = decision
        end
      end

      # :met, :missed, or nil (unclear: probe again).
      def verdict(here)
        return :missed if here.last.error # nothing measured: the server stalled or never drained

        over, judged, errors, attempted = pooled(here)
        return :missed if judged.zero?

        errors_within = errors <= @slo.error_share * attempted
        latency = side(over, judged, @slo.allowed_share)
        return :missed if latency == :above || side(errors, attempted, @slo.error_share) == :above
        return :met if latency == :below && errors_within
        return nil if here.size < TRIES

        over <= @slo.allowed_share * judged && errors_within ? :met : :missed
      end

      # [over the bound, judged, errors, attempted] of the probes' requests together.
      def pooled(here)
        results = here.filter_map { |p| p.repeat&.result }
        sum_pairs(results.map { |r| @slo.tally(r) }) + sum_pairs(results.map { |r| [r.error_count, r.total] })
      end

      def sum_pairs(pairs) = pairs.reduce([0, 0]) { |(a, b), (x, y)| [a + x.to_i, b + y.to_i] }

      # Where a share's 90 % Wilson interval lies against the allowed share:
      # :below (clearly within), :above (clearly over) or nil (unclear).
      def side(count, total, allowed)
        return :below if total.zero?

        low, high = wilson(count, total)
        return :below if high <= allowed
        return :above if low > allowed

        nil
      end

      def wilson(count, total)
        share = count.fdiv(total)
        z2 = Z * Z
        centre = (share + (z2 / (2 * total))) / (1 + (z2 / total))
        half = Z * Math.sqrt((share * (1 - share) / total) + (z2 / (4 * total * total))) / (1 + (z2 / total))
        [centre - half, centre + half]
      end

      def run(rate)
        repeat = @probe.call(rate)
        probe = Probe.new(rate: rate, repeat: repeat, met: @slo.met?(repeat.result), deployment: @deployments)
      rescue Failed => e
        probe = Probe.new(rate: rate, met: false, error: e.message, deployment: @deployments)
      ensure
        @probes << probe
      end
    end
  end
end
