# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The Runner on a real puma: every cell measured in its repeats over fresh
  # deployments, the listener told in order, each cell stored under the key
  # its plan gave it; an endpoint that answers wrongly fails its own cell
  # while the others are measured. The order of side-by-side configs and
  # the arrivals of open-loop windows are read from one run of two pumas.
  class RunnerTest < Minitest::Test
    Listener = Struct.new(:events) do
      def run_started(_run, plan) = events << [:run_started, plan.size]
      def repeat_finished(cell, repeat) = events << [:repeat_finished, cell.index, repeat.index, repeat.deployment]
      def cell_finished(cell, measurement) = events << [:cell_finished, cell.index, measurement.status]
      def run_finished(run) = events << [:run_finished, run["status"]]
    end

    def setup
      why = Engines.fetch("native").new.unavailable_reason
      skip "native engine: #{why}" if why
      @store = Store.new(File.join(tmpdir, "results"))
      @listener = Listener.new([])
    end

    def teardown
      @store&.close
      assert_nothing_left
      super
    end

    # Open loop at 100 req/s with no ratio windows: what is checked here is
    # the order, keys and reasons of windows, not a saturated server's
    # throughput (a closed-loop window keeps both CPUs busy its whole length).
    def run_suite(extra)
      suite = Suite.load(write_suite({ "engine" => "native", "duration_s" => 0.3, "order" => "sequential", "rate" => 100,
                                       "ratio" => "turns" }.merge(extra)))
      Runner.new(suite, store: @store, listener: @listener).run
    end

    def test_each_cell_gets_its_repeats_over_fresh_deployments_and_the_listener_hears_them_in_order
      run_id = run_suite("repeats" => 2, "deployments" => 2)
      assert_equal [[:run_started, 1], [:repeat_finished, 1, 1, 1], [:repeat_finished, 1, 2, 2], [:cell_finished, 1, "ok"],
                    [:run_finished, "finished"]], @listener.events
      assert_equal [1, 2], @store.repeats(run_id).fetch(1).map(&:deployment), "a fresh start per deployment"
    end

    class << self
      attr_accessor :two_pumas
    end

    # One run, made once a file, that two tests read: two like pumas side by
    # side (interleaved), 4 windows each over 2 starts, open loop with
    # Poisson arrivals; [the listener's events, each cell's window seeds].
    def two_pumas
      self.class.two_pumas ||= begin
        run_id = run_suite("order" => "interleaved", "rate" => 50, "arrivals" => "poisson", "repeats" => 4, "deployments" => 2,
                           "servers" => [{ "server" => "puma", "threads" => 2 }] * 2)
        [@listener.events, @store.repeats(run_id).transform_values { |list| list.map { |r| r.result.schedule["seed"] } }]
      end
    end

    def test_side_by_side_configs_take_turns_at_being_measured_first_after_a_start
      events, = two_pumas
      measured = events.select { |e| e.first == :repeat_finished }
      firsts = measured.group_by(&:last).sort.map { |_start, list| list.first[1] }
      assert_equal 2, firsts.size, "two starts"
      refute_equal firsts[0], firsts[1], "the other config leads the second start: #{measured.inspect}"
    end

    def test_each_window_of_an_open_loop_cell_draws_its_own_arrivals_and_every_config_the_same_ones
      _, seeds = two_pumas
      assert_equal 4, seeds.fetch(1).uniq.size, "a seed per window: #{seeds}"
      assert_equal seeds.fetch(1), seeds.fetch(2), "the second config is offered the first's schedules"
    end

    def test_a_cell_is_stored_under_the_key_its_plan_built
      run_id = run_suite("endpoints" => ["/hello", "/sleep/1"], "servers" => [{ "server" => "puma", "threads" => 2 }] * 2)
      planned = @store.planned_cells(run_id)
      assert_equal 4, planned.size, "stored when the run was created"
      stored = @store.cells(run_id)
      key = ->(c) { [c["label"], c["variant"], c["path"]] }
      assert_equal planned.map(&key), stored.map(&key)
      assert_equal [1, 1, 2, 2], stored.map { |c| c["variant"] }, "two entries of one config are told apart"
    end

    def test_a_wrong_answer_fails_its_cell_with_the_reason_and_the_others_are_measured
      run_id = run_suite("endpoints" => ["/hello", { "name" => "wrong", "path" => "/hello", "expect_body" => "goodbye" }])
      cells = @store.cells(run_id).to_h { |c| [c["endpoint"], c] }
      assert_equal "ok", cells["/hello"]["status"]
      assert_equal "failed", cells["wrong"]["status"]
      assert_equal 'verify GET /hello: body does not contain "goodbye": "hello world"', cells["wrong"]["reason"]
      assert_includes @listener.events, [:cell_finished, 2, "failed"]
    end
  end
end
