# frozen_string_literal: true

module Rackbench
  class Runner
    # The Runner's side of `rackbench run --resume` (see Resume): the cells'
    # states as the run stored them, and the deployment numbers and round
    # counts that go on from there, so new folders and the order continue the
    # run's. Created by the Runner only for a resumed run.
    #
    #   resumer = Resumer.new(resume, recorder)
    #   resumer.restore(warmup_s: 1.0, listener: listener)   # the recorder's states filled
    #   resumer.deployment_numbers       # => {group key => the last deployment number}
    #   resumer.round(block)             # => the round its block goes on from
    class Resumer
      def initialize(resume, recorder)
        @resume = resume
        @recorder = recorder
      end

      # The recorder's states filled; the listener told each cell's (so a
      # progress line's time left counts only what is still to measure).
      def restore(warmup_s:, listener: nil)
        @resume.restore(@recorder.states, warmup_s: warmup_s)
        @recorder.states.each_value { |state| listener&.tell(:cell_restored, state.cell, state.repeats, state.done) }
      end

      # Each server config's last deployment number, by its Deployments.key.
      def deployment_numbers
        @recorder.states.each_value.with_object(Hash.new(0)) do |state, numbers|
          key = Deployments.key(state.cell)
          numbers[key] = [numbers[key], *state.repeats.map { |r| r.deployment.to_i }].max
        end
      end

      # The round number a resumed block goes on from: the most repeats of its cells.
      def round(block) = block.cells.map { |c| @recorder.repeats(c).size }.max
    end
  end
end
