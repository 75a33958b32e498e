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
    # neighbours, as seen on this machine while others work). duet: the
    # window noise of a ratio window (ratio: duet: both configs loaded at
    # once under equal CPU shares, so another process's burst hits both):
    # with it, each start also has a ratio window of each config, which
    # carries the start's common and own draws and that noise instead of
    # the windows in turns' (#ratio).
    #
    #   noise = NormalNoise.new(within_cv: 0.05, between_cv: 0.03)
    #   noise.start(Random.new(1), 2)  # => {a: [dev, dev], b: [dev, dev]} log deviations of one start's windows
    #   NormalNoise.new(within_cv: 0.2, between_cv: 0.01, duet_cv: 0.02).ratio(Random.new(1))  # => {a: dev, b: dev}
    class NormalNoise
      STARVED_FACTORS = (0.1..0.8)

      def initialize(within_cv:, between_cv:, common_cv: 0.0, shared_cv: 0.0, starved: 0.0, duet_cv: nil)
        @sd = { window: log_sd(within_cv), own: log_sd(between_cv), common: log_sd(common_cv), shared: log_sd(shared_cv) }
        @starved = starved.to_f
        @duet_sd = duet_cv && log_sd(duet_cv)
        @last = { a: 0.0, b: 0.0 } # the last start's common and own draws, by config
      end

      def to_s = ratio? ? "normal components, with duet windows" : "normal components"

      # Whether each start has a ratio window (#ratio).
      def ratio? = !@duet_sd.nil?

      def start(rng, windows)
        common = normal(rng, @sd[:common])
        shared = Array.new(windows) { normal(rng, @sd[:shared]) }
        %i[a b].to_h do |config|
          own = normal(rng, @sd[:own])
          @last[config] = common + own
          [config, Array.new(windows) { |w| common + own + shared[w] + normal(rng, @sd[:window]) + starvation(rng) }]
        end
      end

      # The last start's ratio window of each config.
      def ratio(rng) = %i[a b].to_h { |config| [config, @last[config] + normal(rng, @duet_sd)] }

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
