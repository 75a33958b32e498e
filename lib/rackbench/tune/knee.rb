# frozen_string_literal: true

module Rackbench
  module Tune
    # The highest open-loop rate at which one running deployment meets the
    # SLO: start from half of a closed-loop estimate, grow the offered rate
    # until the SLO breaks, bisect between the last rate that held and the
    # first that did not, then confirm the knee with more probes (its CI comes
    # from those). Latency is measured from each request's scheduled send time
    # (the native engine's open loop), so a queueing server shows.
    #
    #   knee = Knee.new(slo: slo, probe: ->(rate) { window.measure(...) }).search(estimate_rps)
    #   (the probe returns a Measurement::Repeat, or raises Knee::Failed when
    #   nothing was measured: a miss, with its reason kept)
    #   knee.rate  knee.ci  knee.probes
    class Knee
      Probe = Struct.new(:rate, :repeat, :met, :error, keyword_init: true)

      # A probe that measured nothing (a stalled server, a drain that never came).
      class Failed < StandardError; end

      GROWTH = 1.5
      BISECT_STEPS = 2
      CONFIRMATIONS = 2
      MIN_RATE = 1.0
      MAX_PROBES = 14
      # How close two sustainable rates can be and still be told apart: the
      # bracket's step after the bisection (1.5^(1/4) - 1, about 11 %).
      RESOLUTION = (GROWTH**(1.0 / (2**BISECT_STEPS))) - 1

      attr_reader :probes, :rate

      def initialize(slo:, probe:)
        @slo = slo
        @probe = probe
        @probes = []
      end

      def search(estimate_rps)
        good, bad = bracket([estimate_rps / 2.0, MIN_RATE].max)
        return self unless good

        BISECT_STEPS.times do
          break unless bad && bad / good > 1.1 && @probes.size < MAX_PROBES

          mid = Math.sqrt(good * bad)
          run(mid).met ? good = mid : bad = mid
        end
        @rate = confirm(good).round(1)
        self
      end

      # The probes at the knee that met the SLO: what its CI is made of. When
      # the confirmations kept missing, the highest rate that met it once.
      def at_knee
        return [] unless @rate

        confirmed = @probes.select { |p| p.met && p.rate == @rate }
        return confirmed unless confirmed.empty?

        best = @probes.select { |p| p.met && p.rate <= @rate }.max_by(&:rate)
        best ? [best] : []
      end

      # Why probes measured nothing, most frequent first ("" when none failed).
      def failures = @probes.filter_map(&:error).tally.sort_by { |_, n| -n }.map { |e, n| n > 1 ? "#{e} (#{n}x)" : e }

      def ci = Stats.bootstrap_ci(at_knee.map { |p| p.repeat.requests_per_s })
      def knee_repeat = at_knee.max_by { |p| p.repeat.resources["pss_max_bytes"].to_i }&.repeat

      private

      # [last rate that met the SLO, first that did not] by geometric growth
      # (or shrinking, when even the first rate fails).
      def bracket(start)
        rate = start
        if run(rate).met
          while @probes.size < MAX_PROBES
            higher = rate * GROWTH
            return [rate, higher] unless run(higher).met

            rate = higher
          end
          return [rate, nil]
        end
        while rate > MIN_RATE && @probes.size < MAX_PROBES
          lower = [rate / (GROWTH * GROWTH), MIN_RATE].max
          return [lower, rate] if run(lower).met

          rate = lower
        end
        [nil, rate]
      end

      # More probes at the knee, all of which must meet the SLO; a miss steps
      # the knee down 10 % (twice at most). Its CI comes from these probes.
      def confirm(rate)
        rate = rate.round(1)
        2.times do
          return rate if Array.new(CONFIRMATIONS) { run(rate).met }.all?

          rate = (rate * 0.9).round(1)
        end
        rate
      end

      def run(rate)
        repeat = @probe.call(rate.round(1))
        probe = Probe.new(rate: rate.round(1), repeat: repeat, met: @slo.met?(repeat.result))
      rescue Failed => e
        probe = Probe.new(rate: rate.round(1), met: false, error: e.message)
      ensure
        @probes << probe
      end
    end
  end
end
