# frozen_string_literal: true

module Rackbench
  class Comparison
    # Which ratio windows (ratio: duet; Measurement#ratio_repeats) a
    # throughput comparison of two configs reads, and whether it reads them
    # at all. Only windows the design decided, never their figures, choose:
    #
    # - both servers were busy in them (Measurement::DuetBusy: runnable 90 %
    #   of the time), or the ratio is not one of costs;
    # - they are one duet: rounds of both sides loaded at one instant (the
    #   StartLine's), not rounds of the same number in another block;
    # - they cover every start both sides measured in turns (ratio windows
    #   that stopped early, a third config of the block having idled, are not
    #   read instead of more starts in turns);
    # - a round a starved load generator spoiled (Window marks it
    #   "starved_in_duet") is left out, and two rounds must be left.
    #
    #   source = RatioWindows.new(a, b)
    #   source.read?              # => true
    #   source.repeats_of(a)      # a's ratio windows of the rounds read
    class RatioWindows
      def initialize(a, b)
        @a = a
        @b = b
      end

      def read?
        return @read if defined?(@read)

        @read = [@a, @b].all? { |m| m.respond_to?(:ratio_repeats) && Measurement::DuetBusy.busy?(m.ratio_repeats) } &&
                common_rounds.size >= turns_starts && rounds.size >= 2
      end

      # The measurement's ratio windows of the rounds read.
      def repeats_of(measurement) = measurement.ratio_repeats.select { |r| rounds.include?(r.round) }

      private

      def rounds = @rounds ||= common_rounds - spoiled_rounds

      def common_rounds
        @common_rounds ||= begin
          instants = @b.ratio_repeats.to_h { |r| [r.round, instant(r)] }
          @a.ratio_repeats.select { |r| r.round && instant(r) && instants[r.round] == instant(r) }.map(&:round)
        end
      end

      # The StartLine's instant the window began at (start_line_at, any
      # engine; start_at, an engine that starts at it: windows stored before).
      def instant(repeat) = repeat.noise&.dig("start_line_at") || repeat.noise&.dig("start_at")

      def spoiled_rounds
        [@a, @b].flat_map { |m| m.ratio_repeats.select { |r| r.noise&.dig("starved_in_duet") }.map(&:round) }
      end

      def turns_starts = (@a.repeats.map(&:deployment) & @b.repeats.map(&:deployment)).size
    end
  end
end
