# frozen_string_literal: true

require "test_helper"
require "stringio"
require "rackbench/cli/progress"

module Rackbench
  # The Runner's listener: in a log, one line per finished cell (never one
  # per window); on a terminal, a live line per cell under way, rewritten in
  # place, with the run's pace and what it leaves.
  class ProgressTest < Minitest::Test
    RATES = [100.0, 104.0, 96.0, 101.0].freeze

    def plan(repeats: "auto")
      suite = Suite.new(suite_yaml("concurrency" => [2, 8], "repeats" => repeats, "deployments" => 2,
                                   "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "thin" }]))
      Plan.new(suite)
    end

    def run_row(plan) = { "id" => 7, "suite" => "test", "dir" => "results/runs/7", "settings" => plan.suite.data }

    def repeat(index, rate)
      result = Result.new(requests: rate.to_i, duration_s: 1.0, requests_per_s: rate, histogram: [[1000, rate.to_i]])
      Measurement::Repeat.new(index: index, deployment: index <= 2 ? 1 : 2, round: index, result: result, resources: {},
                              noise: nil)
    end

    # Every cell of the plan measured in interleaved rounds of RATES, then finished.
    def replay(progress, plan)
      progress.run_started(run_row(plan), plan)
      repeats = Hash.new { |h, k| h[k] = [] }
      RATES.each_with_index do |rate, i|
        plan.cells.each do |cell|
          repeats[cell.index] << repeat(i + 1, rate * cell.index)
          progress.repeat_finished(cell, repeats[cell.index].last)
        end
      end
      plan.cells.each do |cell|
        progress.cell_finished(cell, Measurement.new(cell.key.columns.merge("status" => "ok"), repeats[cell.index]))
      end
      progress.run_finished("id" => 7, "status" => "finished")
    end

    def test_a_log_gets_one_line_per_finished_cell_and_none_per_window
      out = StringIO.new
      plan = plan()
      replay(CLI::Progress.new(out), plan)
      lines = out.string.lines
      assert_equal 1 + plan.size + 2, lines.size, "a first line, a line per cell, the last line and a blank:\n#{out.string}"
      assert_match(/\Arackbench: run 7, suite test: 4 cells, /, lines.first)
      figures = %r{\A\[1/4\] puma x0:2 /hello c=2: \d+\.\d req/s \[\d+\.\d, \d+\.\d\] ±\d+\.\d % \(target ±5\.0 %\), }
      assert_match figures, lines[1]
      assert_match(/, 0 errors, 4 windows over 2 starts \(\d+s, about \d+s left\)\n\z/, lines[1])
      assert_match(/ \(\d+s\)\n\z/, lines[plan.size], "the last cell leaves no time")
      refute_match "\e[", out.string
    end

    def test_a_log_gets_the_pace_once_a_minute_passed_without_a_finished_cell
      out = StringIO.new
      clock = 0.0
      plan = plan()
      progress = CLI::Progress.new(out, clock: -> { clock })
      progress.run_started(run_row(plan), plan)
      plan.cells.each_with_index do |cell, i|
        clock = 25.0 * (i + 1)
        progress.repeat_finished(cell, repeat(1, RATES[0]))
      end
      pace = out.string.lines.drop(1)
      # 4 cells of 2 starts of 2 windows: 13 windows left at the pace of 25 s a window
      assert_equal ["rackbench: 3 windows in 1m15s: 0/4 cells done, about 5m25s left\n"], pace,
                   "one line at 75 s (the 3rd window), none at 100 s: a minute had not passed since it"
    end

    def test_a_resumed_run_counts_the_windows_it_had_measured_toward_its_cells_not_its_pace
      out = StringIO.new
      clock = 0.0
      plan = plan()
      progress = CLI::Progress.new(out, clock: -> { clock })
      progress.run_started(run_row(plan), plan)
      first, second, *rest = plan.cells
      progress.cell_restored(first, (1..4).map { |i| repeat(i, RATES[0]) }, true)
      progress.cell_restored(second, (1..2).map { |i| repeat(i, RATES[0]) }, false)
      rest.each { |cell| progress.cell_restored(cell, [], false) }
      clock = 61.0
      progress.repeat_finished(second, repeat(3, RATES[0]))
      # left: 1 window of the second cell, 4 of each of the last two: 9 at 61 s a window so far
      assert_equal ["rackbench: 1 window in 1m01s: 1/4 cells done, about 9m09s left\n"], out.string.lines.drop(1)
    end

    def test_a_terminal_gets_a_live_line_per_cell_rewritten_in_place
      out = StringIO.new
      plan = plan()
      progress = CLI::Progress.new(out, live: true)
      progress.run_started(run_row(plan), plan)
      first, second = plan.cells
      progress.repeat_finished(first, repeat(1, 100.0))
      progress.repeat_finished(second, repeat(1, 200.0))
      progress.repeat_finished(first, repeat(2, 104.0))
      progress.repeat_finished(first, repeat(3, 98.0))
      screen = out.string.split("\e[J").last
      assert_match %r{\Acell 1/4 puma x0:2 /hello c=2: start 2/2\+, 3 windows, ±\d+\.\d % \(target ±5\.0 %\)\n}, screen
      assert_match %r{^cell 2/4 puma x0:2 /hello c=8: start 1/2\+, 1 window, no interval yet \(target ±5\.0 %\)\n}, screen,
                   "windows of one start give no interval"
      assert_match %r{^  0/4 cells done, 4 windows in \d+s, ETA \d+s\n\z}, screen
      assert_match "\e[3A\r", out.string, "the three lines drawn before are rewritten"
    end

    def test_with_a_fixed_number_of_windows_the_starts_are_all_there_is
      out = StringIO.new
      plan = plan(repeats: 4)
      progress = CLI::Progress.new(out, live: true)
      progress.run_started(run_row(plan), plan)
      progress.repeat_finished(plan.cells.first, repeat(1, 100.0))
      assert_match %r{^cell 1/4 puma x0:2 /hello c=2: start 1/2, 1 window, }, out.string
    end

    def test_a_finished_cell_leaves_its_line_above_those_under_way
      out = StringIO.new
      plan = plan()
      progress = CLI::Progress.new(out, live: true)
      progress.run_started(run_row(plan), plan)
      first, second = plan.cells
      repeats = [repeat(1, 100.0), repeat(2, 104.0), repeat(3, 98.0)]
      repeats.each { |r| progress.repeat_finished(first, r) }
      progress.repeat_finished(second, repeat(1, 200.0))
      progress.cell_finished(first, Measurement.new(first.key.columns.merge("status" => "ok"), repeats))
      screen = out.string.split("\e[J").last
      assert_match %r{\A\[1/4\] puma x0:2 /hello c=2: 100\.0 req/s .*3 windows over 2 starts \(\d+s\)\ncell 2/4 }, screen
    end
  end
end
