# frozen_string_literal: true

module Rackbench
  class Simulation
    # Noise drawn from normal components of known spread, on the log scale:
    #
    #   common[start] + own[config, start] + shared[start, window] + window noise
    #
    # common: drift shared by the configs started side by side (pairing
    # cancels it); own: what one config's start draws on its own; shared:
    # window noise that hits the configs of one round alike (another
    # process's burst); window noise: each config's own. Each is given as a
    # coefficient of variation. starved: the share of windows in which
    # another process takes the server's CPU (a window at 10 % to 80 % of its
    # neighbours, as seen on this machine while others work).
    #
    #   noise = NormalNoise.new(within_cv: 0.05, between_cv: 0.03)
    #   noise.start(Random.new(1), 2)  # => {a: [dev, dev], b: [dev, dev]} log deviations of one start's windows
    class NormalNoise
      STARVED_FACTORS = (0.1..0.8)

      def initialize(within_cv:, between_cv:, common_cv: 0.0, shared_cv: 0.0, starved: 0.0)
        @sd = { window: log_sd(within_cv), own: log_sd(between_cv), common: log_sd(common_cv), shared: log_sd(shared_cv) }
        @starved = starved.to_f
      end

      def to_s = "normal components"

      def start(rng, windows)
        common = normal(rng, @sd[:common])
        shared = Array.new(windows) { normal(rng, @sd[:shared]) }
        %i[a b].to_h do |config|
          own = normal(rng, @sd[:own])
          [config, Array.new(windows) { |w| common + own + shared[w] + normal(rng, @sd[:window]) + starvation(rng) }]
        end
      end

      private

      def log_sd(share) = Math.sqrt(Math.log(1 + (share.to_f**2)))

      def normal(rng, spread)
        return 0.0 if spread.zero?

        spread * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
      end

      # The log of the share a window keeps of its rate: below 0 when starved.
      def starvation(rng)
        return 0.0 unless @starved.positive? && rng.rand < @starved

        Math.log(STARVED_FACTORS.begin + (rng.rand * (STARVED_FACTORS.end - STARVED_FACTORS.begin)))
      end
    end
  end
end
