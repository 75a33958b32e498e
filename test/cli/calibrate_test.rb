# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # rackbench calibrate on a real puma: one config twice, side by side, over
  # several starts; the run is stored like any other and the report splits
  # the spread by level and simulates rackbench's procedure on it.
  class CalibrateTest < Minitest::Test
    # The suite's first config, endpoint and concurrency, in windows of its
    # duration_s after its warmup_s.
    def test_an_aa_run_of_one_config_twice_is_stored_and_its_spread_split_by_level
      suite = write_suite("endpoints" => ["/sleep/10"], "duration_s" => 0.5, "warmup_s" => 0.2)
      status, out, err = run_cli("calibrate", suite, "--results", tmpdir, "--starts", "3", "--windows", "2",
                                 "--trials", "40", "--format", "json")
      assert_equal 0, status, "#{out}\n#{err}"
      data = JSON.parse(out) # stdout is the JSON alone: the progress went to stderr
      assert_match(/^rackbench: run \d+, suite calibrate/, err)
      store = Store.new(tmpdir)
      a, b = store.measurements(data["run"])
      assert_equal ["A: puma x0:2", "B: puma x0:2"], [a.label, b.label]
      [a, b].each { |m| assert_equal [1, 1, 2, 2, 3, 3], m.repeats.map(&:deployment), "three starts of two windows" }
      assert_equal [0.5, 0.2, "/sleep/10"], [*store.run(data["run"])["settings"].values_at("duration_s", "warmup_s"), a.endpoint],
                   "the suite's window, warm-up and endpoint"
      components = data["components"]
      assert_equal 3, components["starts"]
      %w[within_start_cv shared_window_cv own_start_cv common_start_cv].each do |k|
        assert_operator components[k], :>=, 0, k
      end
      components["intervals"].each_value { |low, high| assert_operator low, :<=, high }
      recommended = data["recommendation"]["starts"]
      if recommended <= Calibration::SIMULATED_STARTS
        assert data["simulated_at_recommendation"], "the procedure simulated at the settings it recommends"
      else # a machine this noisy recommends more starts than are simulated (seen at load 15-47)
        assert_nil data["simulated_at_recommendation"], "#{recommended} starts are beyond what is simulated"
      end
      assert_operator data["simulated"]["coverage"], :>, 0.5, "the procedure simulated on the measured spread"
      assert_operator data["recommendation"]["starts"], :>=, 2
      assert_operator data["start_cost_s"], :>, 0, "a start costs its boot, measured on the run's own clock"
      assert_nothing_left
    ensure
      store&.close
    end

    def test_a_bad_option_is_one_clear_error_and_starts_nothing
      status, _, err = run_cli("calibrate", "--results", tmpdir, "--starts", "1")
      assert_equal 2, status
      assert_match "--starts must be at least 2, got 1", err
      assert_nothing_left
    end
  end
end
