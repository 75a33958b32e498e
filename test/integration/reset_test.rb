# frozen_string_literal: true

require "test_helper"
require_relative "fixture_app_helper"

module Rackbench
  # Writes that do not drift: a mix whose POST grows the table on an app
  # whose GET gets slower per row (test/fixtures/pg_app); reset: before each
  # start empties it, so each start measures the same app, while without it
  # the cell's throughput falls window after window and the drift warning
  # says so. Twelve 1 s windows without reset: the drift test (Mann-Kendall)
  # needs that many to see a 1/t fall through this machine's noise
  # (simulated: at a CV of 40 % per window it misses one run in 70); the
  # table grows whatever the starts, so they take two starts. With reset,
  # six starts of a window each: what is asserted is each start's window.
  class ResetTest < Minitest::Test
    include FixtureAppHelper

    # Two runs with PostgreSQL (twelve windows, then six starts): 124 s in a
    # whole-suite run at load 5-20 (as two runs of twelve windows over six
    # starts), past the usual 240 s at load 20-40. A hang guard, not a target.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 600].max

    # The run's json report, in this process (CLI.start; bin/rackbench's own
    # start is run_mix's, the user's way): the test reads the stored run.
    def stored_report(results)
      status, json, err = run_cli("report", "--results", results, "--format", "json")
      assert_equal 0, status, err
      JSON.parse(json)
    end

    def run_mix(app, extra)
      results = File.join(tmpdir, "results-#{extra.key?("reset") ? "reset" : "plain"}")
      suite = fixture_suite(app, {
        "services" => [{ "service" => "postgres" }], "concurrency" => [4], "duration_s" => 1, "warmup_s" => 0,
        "drain_path" => "/count",
        "endpoints" => ["/items", { "name" => "create", "path" => "/items?copy=2", "method" => "POST", "body" => "widget",
                                    "expect_status" => 201 }],
        "mix" => [{ "endpoint" => "/items", "weight" => 1 }, { "endpoint" => "create", "weight" => 1 }],
        "servers" => [{ "server" => "puma", "threads" => 4, "endpoints" => ["mix"] }]
      }.merge(extra))
      status, out, pid = rackbench("run", suite, "--results", results)
      assert status.success?, out
      assert_nothing_left(pid)
      cell = stored_report(results)["cells"].first
      rates = cell["repeats"].sort_by { |r| r["started_at"] }.map { |r| r["result"]["requests_per_s"] }
      [cell, rates]
    end

    def test_reset_before_each_start_keeps_the_throughput_while_without_it_the_drift_warning_appears
      why = Services.fetch("postgres").unavailable_reason
      skip "postgres cannot run here: #{why}" if why
      app = fixture_app("pg_app")

      cell, rates = run_mix(app, "repeats" => 12, "deployments" => 2)
      assert(cell["warnings"].any? { |w| w.start_with?("throughput fell") }, "drift without reset: #{rates.inspect}")
      # The PostgreSQL the suite started is a dependency, sampled beside the
      # server (dependencies_test has one already running, named by port).
      assert_operator cell["dependencies"]["postgres"]["cpu_percent"], :>, 0, "every request queried it"

      cell, rates = run_mix(app, "repeats" => 6, "deployments" => 6, "reset" => ["bundle exec bin/reset"])
      assert_equal "ok", cell["status"], cell["reason"]
      # Each start's table grows again from empty, so each start's window
      # (its first) measures the same app: no trend among them, even at 99 %.
      # Six starts are the fewest at which this can fail: six windows each
      # lower than the last give z = -2.63, five only -2.20.
      assert_equal 6, rates.size, "a window a start"
      assert_operator Trend.new(rates).kendall_z, :>, -2.576, "each start begins with an empty table: #{rates.inspect}"
      logs = Dir[File.join(tmpdir, "results-reset", "runs", "*", "*", "d*", "reset", "setup-1.log")]
      assert_equal 6, logs.size, "reset ran before each of the 6 starts"
      assert_includes File.read(logs.first), "items emptied"
    end
  end
end
