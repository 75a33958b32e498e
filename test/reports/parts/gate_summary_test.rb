# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # The gate's short markdown: the exit status and why, a verdict per cell
    # with its change, and the cells that changed, from the Regression itself.
    class GateSummaryTest < Minitest::Test
      include SeedFixtures

      CONFIG = { "server" => "puma", "threads" => 4 }.freeze
      BASELINE = { "id" => 3, "suite" => "run 3 (quick)" }.freeze
      CURRENT = { "id" => 4, "suite" => "run 4 (quick)" }.freeze

      def summary(rps_now, status:, sleep_rps: 40.0)
        before = [cell("puma x0:4", CONFIG, endpoint: "hello", concurrency: 8, rps: 100.0),
                  cell("puma x0:4", CONFIG, endpoint: "sleep", concurrency: 8, rps: 40.0)]
        now = [cell("puma x0:4", CONFIG, endpoint: "hello", concurrency: 8, rps: rps_now),
               cell("puma x0:4", CONFIG, endpoint: "sleep", concurrency: 8, rps: sleep_rps)]
        @regression = Regression.new(before, now)
        GateSummary.new(@regression, BASELINE, CURRENT, status: status, command: "compare").markdown
      end

      def test_a_regression_heads_the_summary_with_its_exit_status_and_names_the_cell_that_moved
        text = summary(50.0, status: 1)
        assert_equal "### rackbench compare: REGRESSED", text.lines.first.chomp
        assert_includes text, "**Exit 1**: at least one cell is significantly worse than the threshold."
        assert_includes text, "run 4 (quick) against run 3 (quick); good req/s (errors left out), threshold 5.0 %."
        change = @regression.change_text(@regression.rows.first)
        assert_match(/\A-50\.0 % \[/, change)
        assert_includes text, "| puma x0:4 | hello | 8 | regressed | #{change} |"
        assert_includes text, "| puma x0:4 | sleep | 8 | equivalent | #{@regression.change_text(@regression.rows.last)} |"
        assert_includes text, "Regressed: puma x0:4 hello c=8 (#{change})."
        refute_includes text, "Improved:"
      end

      def test_a_passing_gate_says_so_and_lists_what_improved
        text = summary(100.0, status: 0, sleep_rps: 80.0)
        assert_equal "### rackbench compare: passed", text.lines.first.chomp
        assert_includes text, "**Exit 0**: no cell is significantly worse than the threshold."
        assert_match(/^Improved: puma x0:4 sleep c=8 \(\+100\.0 % \[/, text)
      end

      def test_nothing_that_moved_is_said_in_one_line
        assert_includes summary(100.0, status: 0), "No cell changed beyond its interval."
      end

      def test_a_failed_cell_is_not_compared_and_its_reason_shown
        before = [cell("puma x0:4", CONFIG, endpoint: "hello", concurrency: 8)]
        now = [cell("puma x0:4", CONFIG, endpoint: "hello", concurrency: 8, status: "failed", reason: "exited (SIGKILL)")]
        text = GateSummary.new(Regression.new(before, now), BASELINE, CURRENT, status: 5, command: "ab").markdown
        assert_equal "### rackbench ab: NOT COMPARED", text.lines.first.chomp
        assert_includes text, "| not compared: failed in the new run: exited (SIGKILL) | - |"
        assert_includes text, "Not compared: puma x0:4 hello c=8."
      end
    end
  end
end
