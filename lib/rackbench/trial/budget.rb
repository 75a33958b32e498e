# frozen_string_literal: true

module Rackbench
  # A run's wall-time budget (suite key budget_s, `run --budget 20m`): the
  # Runner asks before each start whether the time left pays for it at the
  # pace of the last start; the first start always runs. The last start, not
  # the mean of all: the starts after the first look measure only the cells
  # still open, so they shrink (puma-vs-unicorn-2016 at --scale: 6.3 min each
  # for the first 3, 2.3 min for the 7th; at the mean pace, 4.6 min, its
  # budget refused an 8th start that would have fitted). What the budget
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
      @asked_at = @started
    end

    def allows?(epoch)
      now = @clock.call
      last_start_s = now - @asked_at
      @asked_at = now
      return true unless seconds && epoch > 1
      return true if now - @started + last_start_s <= seconds

      @spent_after = epoch - 1
      false
    end
  end
end
