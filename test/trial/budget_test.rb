# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A run's wall-time budget, asked before each start, on a clock the test moves.
  class BudgetTest < Minitest::Test
    def budget(seconds)
      @now = 0.0
      Budget.new(seconds, clock: -> { @now })
    end

    def test_the_first_start_always_runs
      b = budget(1)
      @now = 50
      assert b.allows?(1)
    end

    def test_a_start_runs_while_the_time_left_pays_for_one_more_at_the_pace_of_the_last
      b = budget(100)
      assert b.allows?(1)
      @now = 40
      assert b.allows?(2)
      @now = 60 # the second took 20 s: the third would end at 80
      assert b.allows?(3)
      @now = 85 # the third took 25 s: a fourth would end at 110
      refute b.allows?(4)
      assert_equal 3, b.spent_after
    end

    # Later starts measure only the cells still open: the mean pace (27 s)
    # would refuse a fourth start that the last one's (10 s) says fits.
    def test_a_start_shorter_than_the_first_ones_is_the_pace_that_counts
      b = budget(100)
      assert b.allows?(1)
      @now = 50
      assert b.allows?(2)
      @now = 70
      assert b.allows?(3)
      @now = 80
      assert b.allows?(4)
      assert_nil b.spent_after
    end

    def test_no_budget_never_stops_a_run
      b = budget(nil)
      @now = 1e9
      assert b.allows?(50)
      assert_nil b.spent_after
    end
  end
end
