# frozen_string_literal: true

module Rackbench
  class Simulation
    # Noise drawn from an A/A run's own windows, not from a model of them: a
    # simulated start is one of the run's starts picked at random, and its
    # windows are that start's rounds drawn with replacement, A's and B's
    # window of a round kept together (a two-stage bootstrap of clusters,
    # Davison & Hinkley 1997, section 3.8). Whatever the run held is kept: a
    # starved window's tail, noise shared by the configs of a round, drift
    # shared by a start, and each config's own start. Each config's values
    # are centred on its own mean over starts, so the two configs are
    # identical in the resampled world (Simulation then scales A by the
    # ratio it is asked about). Drawing whole starts counts their window
    # noise once more in the start's mean, so the spread between starts is
    # if anything overstated: the simulated procedure errs on the careful side.
    #
    # With ratio_rounds (a run's duet windows, ratio: duet), each simulated
    # start also has a ratio window of each config (#ratio): one of the
    # run's duet rounds, from a start picked at random among those that
    # have them, centred the same way.
    #
    #   noise = ResampledNoise.new(PairedComponents.new(a, b).rounds)
    #   noise.start(Random.new(1), 2)  # => {a: [dev, dev], b: [dev, dev]}
    class ResampledNoise
      attr_reader :starts, :ratio_starts

      # rounds: [[[log A, log B] per round] per start], as PairedComponents#rounds gives;
      # ratio_rounds: the same of the duet windows (none: no ratio windows).
      def initialize(rounds, ratio_rounds: nil)
        @starts = centred(rounds, "a window of each config")
        @ratio_starts = ratio_rounds && centred(ratio_rounds, "a duet window of each config")
      end

      def to_s
        duet = ratio? ? ", #{ratio_starts.sum(&:size)} duet rounds" : ""
        "this run's own windows, resampled (#{starts.size} starts, #{starts.sum(&:size)} rounds#{duet})"
      end

      def start(rng, windows)
        start = @starts[rng.rand(@starts.size)]
        picked = Array.new(windows) { start[rng.rand(start.size)] }
        { a: picked.map(&:first), b: picked.map(&:last) }
      end

      # Whether each start has a ratio window (#ratio).
      def ratio? = !@ratio_starts.nil?

      def ratio(rng)
        start = @ratio_starts[rng.rand(@ratio_starts.size)]
        x, y = start[rng.rand(start.size)]
        { a: x, b: y }
      end

      private

      def centred(rounds, what)
        usable = rounds.reject(&:empty?)
        raise ArgumentError, "resampling needs 2 starts with #{what}, got #{usable.size}" if usable.size < 2

        centres = [0, 1].map { |i| Stats.mean(usable.map { |start| Stats.mean(start.map { |pair| pair[i] }) }) }
        usable.map { |start| start.map { |x, y| [x - centres[0], y - centres[1]] } }
      end
    end
  end
end
