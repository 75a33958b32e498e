# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # The cells' records, against a store that keeps what it is given: each
    # repeat is numbered, tied to its start and round, stored at once and
    # told; each cell is stored once, finished or failed, with its reason,
    # and told as a Measurement.
    class RecorderTest < Minitest::Test
      FakeStore = Struct.new(:repeats, :cells) do
        def add_repeat(run_id, position, repeat) = repeats << [run_id, position, repeat.index]

        def finish_cell(run_id, row)
          cells << [run_id, row]
          Measurement.new(row, [])
        end
      end

      Heard = Struct.new(:events) do
        def repeat_finished(cell, repeat) = events << [:repeat, cell.index, repeat.index, repeat.deployment, repeat.round]
        def cell_finished(cell, measurement) = events << [:cell, cell.index, measurement.status, measurement["reason"]]
      end

      def setup
        suite = Suite.load(write_suite("endpoints" => ["/hello", "/sleep/1"]))
        @plan = Plan.new(suite)
        @store = FakeStore.new([], [])
        @heard = Heard.new([])
        @recorder = Recorder.new(@plan, store: @store, run_id: 7, engine_name: "wrk",
                                        listener: Listener.new(@heard))
      end

      def cell(index = 1) = @plan.cells.find { |c| c.index == index }

      def repeat = Measurement::Repeat.new(resources: {}, noise: {})

      def test_each_kept_window_is_the_cells_next_repeat_stored_at_once_and_told
        @recorder.keep(cell, repeat, deployment: 1, round: 1, load_s: 1.25)
        @recorder.keep(cell, repeat, deployment: 2, round: 3, load_s: 1.25)
        assert_equal [[7, 1, 1], [7, 1, 2]], @store.repeats
        assert_equal [[:repeat, 1, 1, 1, 1], [:repeat, 1, 2, 2, 3]], @heard.events
        assert_equal 2, @recorder.repeats(cell).size
        assert_in_delta 2.5, @recorder.load_s(cell), 1e-9
      end

      def test_a_failed_cell_is_stored_with_its_reason_log_tail_and_key_and_told
        @recorder.fail(cell(2), "exited with status 1", log_tail: "boom")
        run_id, row = @store.cells.fetch(0)
        assert_equal 7, run_id
        assert_equal ["failed", "exited with status 1", "boom", "wrk", 2], row.values_at("status", "reason", "log_tail", "engine",
                                                                                         "position")
        assert_equal cell(2).key.columns, row.slice(*cell(2).key.columns.keys), "the key's columns, as the plan built them"
        assert_equal [[:cell, 2, "failed", "exited with status 1"]], @heard.events
        assert @recorder.done?(cell(2))
      end

      def test_a_cell_is_recorded_once_whatever_comes_after
        @recorder.fail(cell, "never ready")
        @recorder.finish(cell, trial: nil)
        @recorder.fail(cell, "exited")
        assert_equal(["never ready"], @store.cells.map { |_, row| row["reason"] })
      end

      def test_at_the_end_every_open_cell_is_finished_and_the_done_ones_are_left_alone
        @recorder.fail(cell(1), "never ready")
        @recorder.finish_all
        assert_equal([[1, "failed"], [2, "ok"]], @store.cells.map { |_, row| row.values_at("position", "status") })
      end
    end
  end
end
