# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # A resumed run goes on from what its store kept: the cells' repeats and
    # done marks (Resume#restore), each server config's last deployment
    # number, and each block's rounds.
    class ResumerTest < Minitest::Test
      Repeat = Struct.new(:deployment)

      # Resume#restore's part: fills the states as a store would.
      StoredRun = Struct.new(:repeats, :done) do
        def restore(states, warmup_s:)
          repeats.each { |position, deployments| states[position].repeats.concat(deployments.map { |d| Repeat.new(d) }) }
          done.each { |position| states[position].done = true }
          states.each_value { |state| state.load_s = state.repeats.size * warmup_s }
        end
      end

      def setup
        suite = Suite.load(write_suite("endpoints" => ["/hello", "/sleep/1"], "servers" => [{ "server" => "puma" }] * 2))
        @plan = Plan.new(suite)
        @recorder = Recorder.new(@plan, store: nil, run_id: 1, engine_name: "wrk", listener: Listener.new(nil))
      end

      def resumer(repeats, done = []) = Resumer.new(StoredRun.new(repeats, done), @recorder)

      def test_the_recorders_states_are_filled_from_the_store
        resumer({ 1 => [1, 2] }, [3]).restore(warmup_s: 1.0)
        first = @plan.cells.first
        assert_equal [1, 2], @recorder.repeats(first).map(&:deployment)
        assert_equal([false, false, true, false], @plan.cells.map { |c| @recorder.done?(c) })
      end

      def test_each_server_configs_deployments_go_on_from_the_last_one_stored
        by_config = @plan.cells.group_by { |c| Deployments.key(c) }.values
        repeats = { by_config[0][0].index => [1, 2], by_config[0][1].index => [3], by_config[1][0].index => [1] }
        resume = resumer(repeats)
        resume.restore(warmup_s: 0.0)
        assert_equal([3, 1], by_config.map { |cells| resume.deployment_numbers[Deployments.key(cells[0])] })
      end

      def test_a_block_goes_on_from_the_most_repeats_of_its_cells
        block = Schedule.new(order: "interleaved", seed: 1).levels(@plan.cells).first.last.first
        resume = resumer({ block.cells[0].index => [1, 1, 2], block.cells[1].index => [1] })
        resume.restore(warmup_s: 0.0)
        assert_equal 3, resume.round(block)
      end
    end
  end
end
