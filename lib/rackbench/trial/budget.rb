# frozen_string_literal: true

module Rackbench
  # A run's wall-time budget (suite key budget_s, `run --budget 20m`): the
  # Runner asks before each start whether the time left pays for it at the
  # pace of the starts so far; the first start always runs. What the budget
  # leaves open, the verdicts say (inconclusive, with what more would settle).
  #
  #   budget = Budget.new(1200)
  #   budget.allows?(epoch)   # before each start
  #   budget.spent_after      # the starts made when it ran out, or nil
  class Budget
    attr_reader :seconds, :spent_after

    def initialize(seconds, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
      @seconds = seconds
      @clock = clock
      @started = clock.call
    end

    def allows?(epoch)
      return true unless seconds && epoch > 1

      elapsed = @clock.call - @started
      return true if elapsed + (elapsed / (epoch - 1)) <= seconds

      @spent_after = epoch - 1
      false
    end
  end
end
