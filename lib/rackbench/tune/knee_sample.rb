# frozen_string_literal: true

module Rackbench
  module Tune
    # The knees of K independent searches of one config (each a Knee: a
    # bracket and bisection on its own fresh deployment, confirmed on another)
    # and what they say together. Created by Tuner, one per config.
    #
    #   sample = KneeSample.new([knee1, knee2, knee3])
    #   sample.rate      # the reported knee: the lower median of the confirmed knees' rates
    #   sample.interval  # where the knee lies: Student t over the searches (StartSample), nil below 2 confirmed
    #   sample.knee      # the Knee whose rate is reported (its probes give latency and memory at the knee)
    #
    # Each confirmed search places its knee at the geometric centre of its own
    # bracket (the rate it met on both deployments and the lowest rate that
    # missed above it; the met rate alone when none missed), and the interval
    # is StartSample's over those centres, one search a start: the searches
    # are independent, each on its own deployments, and each starts from a
    # random offset on the search's rate grid, so their knees do not all land
    # on the same probed rates. The reported rate is always one that was probed
    # and met in a search's confirming probes: the lower median of the
    # confirmed searches' rates. A config with fewer than MIN_CONFIRMED
    # confirmed searches has no rate and no interval ("knee not confirmed").
    # A sample of one search (bench/tune's reference grid) has the rate of
    # that search, if confirmed, and no interval.
    class KneeSample
      MIN_CONFIRMED = 2

      # Runs `searches` searches (after those of `from`, a KneeSample to
      # extend). deploy.call(number) starts deployment number (1, 2, ...;
      # the previous one stopped) and returns its probe; the first search
      # starts from half of the capacity (from's, when it was screened, else
      # estimate.call: a closed-loop capacity on the deployment just started),
      # each later one from just below the last knee found; every start is
      # moved by GROWTH ** u, u uniform in [0, 1) from random, a random offset
      # on the search's rate grid.
      def self.search(slo:, searches:, random:, deploy:, estimate:, from: nil)
        knees = from ? from.knees.dup : []
        previous = knees.reverse.find(&:rate)&.rate
        capacity = from&.capacity_rps
        searches.times do
          index = knees.size
          probe = deploy.call((2 * index) + 1)
          offset = Knee::GROWTH**random.rand
          capacity ||= estimate.call unless previous
          start = previous ? previous / Knee::GROWTH * offset : capacity / 2.0 * offset
          knee = Knee.new(slo: slo, probe: probe).search_from(start)
          knee.confirm(deploy.call((2 * index) + 2)) if knee.rate
          previous = knee.rate || previous
          knees << knee
        end
        new(knees, capacity_rps: capacity)
      end

      # A config measured by its closed-loop capacity alone, screened out
      # when that is below `below`: the estimate is taken again when the
      # first falls below it, so one starved second does not screen it out.
      def self.screen(estimate:, below:)
        first = estimate.call
        new([], capacity_rps: first < below ? [first, estimate.call].max : first, below: below)
      end

      attr_reader :knees, :capacity_rps

      # capacity_rps: the closed-loop estimate the first search started from
      # (or the screen's); below: the screen's bar.
      def initialize(knees, capacity_rps: nil, below: nil)
        @knees = knees
        @capacity_rps = capacity_rps
        @below = below
      end

      # Not searched: its capacity is below the screen's bar (.screen).
      def screened? = @knees.empty? && !@below.nil? && @capacity_rps < @below

      def searches = @knees.size
      def confirmed = @knees.select(&:rate)
      def confirmed? = searches.positive? && confirmed.size >= [MIN_CONFIRMED, searches].min

      # Some search found a knee, but too few were confirmed on a fresh deployment.
      def unconfirmed? = !confirmed? && @knees.any? { |k| k.rate || k.unconfirmed? }

      def rate = knee&.rate

      def knee
        return nil unless confirmed?

        sorted = confirmed.sort_by(&:rate)
        sorted[(sorted.size - 1) / 2]
      end

      # Each confirmed search's estimate of where its knee lies.
      def centres
        confirmed.map do |k|
          low, high = k.found
          high ? Math.sqrt(low * high) : low
        end
      end

      def interval(level: Stats::LEVEL)
        return nil unless confirmed.size >= MIN_CONFIRMED

        StartSample.new(centres.map { |c| [c] }).interval(level: level)
      end

      alias ci interval

      # The probes at the reported knee that met the SLO read latency and memory there.
      def knee_repeat = knee&.knee_repeat

      def probes = @knees.flat_map(&:probes)
      def failures = @knees.flat_map(&:failures).uniq
    end
  end
end
