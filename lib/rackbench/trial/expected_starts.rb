# frozen_string_literal: true

module Rackbench
  # How many server starts a block of a run is expected to take, before
  # anything is measured: the run's own design (RepeatPolicy: its first look,
  # cap and stopping rule) simulated (Simulation) on comparisons whose truth
  # is not known yet, drawn at RATIOS (equally likely) under NOISE. What
  # RunEstimate plans a first run with, where no run here says how far runs
  # go. The quick suite's 12 runs on this project's VM (2026-11-28, load
  # 3-36) took 3 to 8 starts a block, 5.5 on average, and 7.1 for the level
  # its two blocks share; simulated: 5.6 and 6.8.
  #
  # A fixed number of starts (repeats: N) is taken as it is.
  #
  #   starts = ExpectedStarts.new(suite.data)   # a suite's settings
  #   starts.open_share(3)    # 1.0: every block takes its first look's starts
  #   starts.open_share(6)    # 0.5: the share of blocks still open at start 6
  #   starts.mean             # 5.6
  class ExpectedStarts
    # The leader against the runner-up of a block, before it is measured: as
    # often alike (A/A, two configs of one server) as a few tens of per cent
    # or twice apart.
    RATIOS = [1.0, 1.1, 1.25, 1.5, 2.0].freeze
    # A quiet machine's windows (NOISE.md: about 5 %) and the spread between
    # starts of the quick suite's cells on a fresh one (up to 8.9 %).
    NOISE = { within_cv: 0.05, between_cv: 0.09 }.freeze
    TRIALS = 100 # a ratio
    SEED = 35
    # The code the simulation runs (Computed keeps its result for this code only).
    SOURCES = [*Dir[File.join(__dir__, "../results/**/*.rb")], File.join(__dir__, "repeat_policy.rb"), __FILE__,
               File.join(__dir__, "../suite/keys.rb")].map { |f| File.expand_path(f) }.freeze

    def initialize(settings, noise: NOISE, ratios: RATIOS, trials: TRIALS)
      @settings = settings
      @policy = RepeatPolicy.new(settings)
      @noise = noise
      @ratios = ratios
      @trials = trials
    end

    # The share of blocks that take at least `epoch` starts.
    def open_share(epoch)
      return 1.0 if epoch <= @policy.starts
      return 0.0 if epoch > @policy.max_starts

      counts.count { |n| n >= epoch }.fdiv(counts.size)
    end

    def mean = counts.sum.fdiv(counts.size)

    private

    # Each simulated comparison's starts: the design's when it stops by
    # looking, else the fixed first stage.
    def counts
      @counts ||= @policy.auto? ? self.class.simulated(@settings, @noise, @ratios, @trials) : [@policy.starts]
    end

    @simulated = {}
    @simulated_lock = Mutex.new

    class << self
      # The simulation's starts, once a machine for each design and code
      # (Computed): it is seeded (SEED), so a run's estimate before it
      # starts, the one it learns from when it ends and every later run of
      # the same suite read the same list (0.4-1.8 CPU-s each).
      def simulated(settings, noise, ratios, trials)
        key = Marshal.dump([settings, noise, ratios, trials])
        @simulated_lock.synchronize do
          @simulated[key] ||= Computed.fetch("expected-starts", [key, SEED], sources: SOURCES) do
            simulate(settings, noise, ratios, trials)
          end.freeze
        end
      end

      private

      def simulate(settings, noise, ratios, trials)
        simulation = Simulation.new(settings: settings, **noise)
        rng = Random.new(SEED)
        ratios.flat_map { |ratio| Array.new(trials) { simulation.trial(rng, ratio)[:starts] } }
      end
    end
  end
end
