# frozen_string_literal: true

require "test_helper"

module Rackbench
  class StartSampleTest < Minitest::Test
    E = Math::E

    def test_the_estimate_is_the_geometric_mean_of_each_starts_mean_log
      sample = StartSample.new([[1.0, E**2], [E**3]])
      assert_in_delta E**2, sample.estimate, 1e-9, "start means on the log scale are 1 and 3"
    end

    def test_the_interval_is_student_t_over_starts_on_the_log_scale
      ci = StartSample.new([[1.0], [E], [E**2]]).interval
      half = 4.302653 * 1.0 / Math.sqrt(3) # t(0.975, 2) * sd 1 / sqrt(3 starts)
      assert_in_delta E**(1 - half), ci.low, 1e-4
      assert_in_delta E**(1 + half), ci.high, 1e-4
      assert ci.cover?(ci.estimate)
    end

    def test_one_start_has_no_interval_however_many_windows
      assert_nil StartSample.new([[10.0, 11.0, 12.0, 13.0]]).interval
    end

    def test_windows_of_one_start_do_not_narrow_the_interval_of_its_starts
      few = StartSample.new([[100.0], [110.0], [90.0]]).interval
      many = StartSample.new([[100.0] * 10, [110.0] * 10, [90.0] * 10]).interval
      assert_in_delta few.high / few.low, many.high / many.low, 1e-9
    end

    def test_variance_splits_into_within_and_between_starts
      sample = StartSample.new([[1.0, 1.0], [E, E]])
      assert_in_delta 0.0, sample.within_variance, 1e-12
      assert_in_delta 0.5, sample.between_variance, 1e-12
      spread = StartSample.new([[1.0, E], [1.0, E]])
      assert_in_delta 0.5, spread.within_variance, 1e-12
      assert_in_delta 0.0, spread.between_variance, 1e-12
    end

    def test_steins_interval_keeps_the_first_stages_spread_and_degrees_of_freedom
      groups = [[1.0], [E], [1.0], [E], [E**0.5], [E**0.5]]
      ci = StartSample.new(groups).interval(first_stage: 4)
      first_sd = Stats.stddev([0.0, 1.0, 0.0, 1.0])
      half = StudentT.critical(0.95, 3) * first_sd / Math.sqrt(6)
      assert_in_delta Math.exp(0.5 + half), ci.high, 1e-9
    end

    def test_a_start_that_went_wrong_after_the_first_stage_widens_the_interval_beyond_steins
      logs = [0.0, 0.01, -0.01, 0.0, 0.0, 0.5] # the sixth start lost a window to another process
      stein_se, stein_df = StartSample.standard_error(logs, first_stage: 4, rule: :first_stage)
      every_se, every_df = StartSample.standard_error(logs, first_stage: 4, rule: :all_starts)
      assert_equal [3, 5], [stein_df, every_df]
      assert_equal [every_se, every_df], StartSample.standard_error(logs, first_stage: 4)
      assert_operator StudentT.critical(0.95, 5) * every_se, :>, StudentT.critical(0.95, 3) * stein_se
    end

    def test_a_quiet_tail_keeps_steins_wider_interval
      logs = [0.0, 0.2, -0.2, 0.1, 0.0, 0.0, 0.0, 0.0]
      assert_equal StartSample.standard_error(logs, first_stage: 4, rule: :first_stage),
                   StartSample.standard_error(logs, first_stage: 4)
    end

    def test_windows_that_served_nothing_are_left_out
      assert_equal 1, StartSample.new([[0.0, 5.0], [0.0]]).starts
    end
  end
end
