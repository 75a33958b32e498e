# frozen_string_literal: true

module Rackbench
  class Runner
    # The Runner's side of `rackbench run --resume` (see Resume): its cells'
    # states as the run stored them, and deployment numbers and round counts
    # that go on from there, so new folders and the order continue the run's.
    module Resuming
      private

      def restore
        @resume.restore(@states, warmup_s: suite["warmup_s"].to_f)
        @states.each_value do |state|
          key = group_key(state.cell)
          @deployed[key] = [@deployed[key], *state.repeats.map { |r| r.deployment.to_i }].max
        end
      end

      # The round number a resumed block goes on from: the most repeats of its cells.
      def resumed_round(block) = block.cells.map { |c| @states[c.index].repeats.size }.max
    end
  end
end
