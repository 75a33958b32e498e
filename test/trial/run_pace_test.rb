# frozen_string_literal: true

require "test_helper"

module Rackbench
  # How the latest runs here went against their plan: the time taken per
  # second of plan, and how far between the first look and the cap they
  # went, from what each finished run of this machine stored.
  class RunPaceTest < Minitest::Test
    FakeStore = Struct.new(:listed) do
      def runs(limit:) = listed.first(limit)
    end

    def learned(taken_s, done_s, first_look_s: 100.0, cap_s: 300.0, blocks: 2, at_first: 1)
      { "taken_s" => taken_s, "done_s" => done_s, "first_look_s" => first_look_s, "cap_s" => cap_s, "blocks" => blocks,
        "blocks_at_first_look" => at_first, "model" => RunEstimate::MODEL }
    end

    def stored_run(estimate, status: "finished", host: "here")
      { "status" => status, "machine" => { "hostname" => host }, "settings" => { "estimate" => estimate }.compact }
    end

    def pace(*listed, runs: RunPace::RUNS) = RunPace.of(FakeStore.new(listed), host: "here", runs: runs)

    def test_a_run_that_took_twice_its_plan_and_went_half_way_to_its_cap_doubles_the_figure_half_way
      p = pace(stored_run(learned(400.0, 200.0)))
      assert_in_delta 2.0, p.factor, 1e-9
      assert_in_delta 0.5, p.reach, 1e-9
      assert_in_delta 2.0 * (60 + (0.5 * 40)), p.about_s(60.0, 100.0), 1e-9
      assert_equal "from the latest run here: it took 2.0x its plan, 1 of 2 blocks settled at the first look", p.to_s
    end

    def test_the_median_of_the_latest_runs_is_taken_so_one_odd_run_does_not_move_it
      p = pace(stored_run(learned(150.0, 100.0)), stored_run(learned(900.0, 100.0)),
               stored_run(learned(120.0, 100.0, at_first: 2)))
      assert_in_delta 1.5, p.factor, 1e-9
      assert_in_delta 0.0, p.reach, 1e-9, "every run at its first look"
      assert_match(/\Afrom the 3 latest runs here: they took 1\.5x their plan, 4 of 6 blocks settled/, p.to_s)
    end

    def test_only_the_latest_finished_runs_of_this_machine_that_stored_their_pace_count
      p = pace(stored_run(learned(500.0, 100.0), status: "interrupted"), stored_run(learned(500.0, 100.0), host: "elsewhere"),
               stored_run(nil), stored_run(learned(110.0, 100.0)), stored_run(learned(130.0, 100.0)),
               stored_run(learned(700.0, 100.0)), runs: 2)
      assert_equal 2, p.runs.size
      assert_in_delta 1.2, p.factor, 1e-9
    end

    def test_a_run_past_its_cap_or_short_of_its_first_look_counts_at_that_end
      assert_in_delta 1.0, pace(stored_run(learned(500.0, 450.0))).reach, 1e-9
      assert_in_delta 0.0, pace(stored_run(learned(50.0, 50.0))).reach, 1e-9, "a budget ended it"
      assert_in_delta 0.0, pace(stored_run(learned(50.0, 100.0, cap_s: 100.0))).reach, 1e-9, "a plan of one end"
    end

    def test_with_nothing_learned_it_takes_the_default_factor_and_says_so
      [pace, pace(stored_run(nil)), pace(stored_run(learned(0, 0)))].each do |p|
        refute p.learned?
        assert_in_delta RunPace::DEFAULT_FACTOR, p.factor, 1e-9
        assert_nil p.reach, "RunEstimate plans the starts its design's simulation expects"
      end
      assert_equal "no run stored here", pace.to_s
      assert_equal "no run here stored its pace", pace(stored_run(nil)).to_s
    end

    # A run planned by an older model of the costs (no stops, no run set-up)
    # took more per second of its plan than this model's would say.
    def test_runs_planned_by_another_model_of_the_costs_are_not_read
      older = learned(900.0, 100.0).merge("model" => RunEstimate::MODEL - 1)
      p = pace(stored_run(older.except("model")), stored_run(older), stored_run(learned(120.0, 100.0)))
      assert_equal 1, p.runs.size
      assert_in_delta 1.2, p.factor, 1e-9
      refute pace(stored_run(older)).learned?
    end
  end
end
