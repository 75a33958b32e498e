# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

module Rackbench
  # Synthetic runs of known truth, small enough to run in a moment: the
  # same seed gives the same run; a clear difference is called the right
  # way at the first look; a fixed number of repeats uses exactly the starts
  # it names; every share is a share. (Coverage over many trials, the
  # statistics themselves: test/results/coverage_test.rb.)
  class SimulationTest < Minitest::Test
    QUIET = { within_cv: 0.01, between_cv: 0.01 }.freeze

    def test_a_simulation_is_reproducible_from_its_seed
      noisy = { within_cv: 0.1, between_cv: 0.08 }
      first = Simulation.new(**noisy, seed: 3).run(trials: 20)
      assert_equal first, Simulation.new(**noisy, seed: 3).run(trials: 20)
      refute_equal first, Simulation.new(**noisy, seed: 4).run(trials: 20)
    end

    def test_twice_the_throughput_on_a_quiet_machine_is_called_faster_every_time_at_the_first_look
      result = Simulation.new(**QUIET, settings: { "deployments" => 3 }).run(trials: 20, ratio: 2.0)
      assert_equal({ "a_better" => 1.0 }, result["verdicts"])
      assert_equal 0.0, result["false_verdicts"]
      assert_equal 3.0, result["mean_starts"], "settled at the first look, after the first stage's 3 starts"
      assert_equal 1.0, result["ratio_coverage"], "the ratio's interval holds the true 2"
    end

    # As the Runner measures a block its ratio windows decide: one window in
    # turns a first-stage start, then ratio windows only.
    def test_with_duet_windows_a_run_takes_one_window_in_turns_a_first_stage_start_and_a_ratio_window_every_start
      simulation = Simulation.new(within_cv: 0.2, between_cv: 0.0, duet_cv: 0.01, settings: { "max_deployments" => 5 })
      repeats = nil
      simulation.stub(:judge, ->(r, *_rest) { repeats = r }) { simulation.trial(Random.new(1), 1.0) }
      turns, ratio = repeats[:a].partition { |r| !r.ratio? }
      assert_equal [1, 2, 3], turns.map(&:deployment)
      assert_equal (1..ratio.size).to_a, ratio.map(&:deployment)
      assert_operator ratio.size, :>=, 3
    end

    def test_a_fixed_number_of_repeats_uses_the_starts_it_names
      result = Simulation.new(**QUIET, settings: { "repeats" => 6, "deployments" => 3 }).run(trials: 5)
      assert_equal 3.0, result["mean_starts"]
    end

    def test_identical_configs_give_shares_that_add_up_and_stop_within_the_cap
      result = Simulation.new(within_cv: 0.1, between_cv: 0.1, settings: { "max_deployments" => 6 }).run(trials: 30)
      assert_in_delta 1.0, result["verdicts"].values.sum, 1e-9
      %w[coverage ratio_coverage false_verdicts].each { |key| assert_includes 0.0..1.0, result[key], key }
      assert_includes 3.0..6.0, result["mean_starts"], "from the first look to max_deployments"
    end
  end
end
