# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/article/summary"

module Rackbench
  module Article
    # What a seed report reads from one stored run: what was scaled in the
    # article's words, the run's conditions, the server's CPUs against the
    # article's machine, the cells grouped as the articles group their
    # tables, and each failure once.
    class SummaryTest < Minitest::Test
      include SeedFixtures

      def summary(run = stored_run, cells = []) = Summary.new(run, cells)

      def test_an_unscaled_run_says_nothing_about_scaling
        assert_nil summary.scaled_text
      end

      def test_scaling_names_each_key_its_endpoint_and_the_blocks_note
        scaled = { "by" => "scale", "note" => "the question is the same",
                   "changes" => [{ "key" => "concurrency", "endpoint" => "sleep", "from" => 500, "to" => 100 },
                                 { "key" => "concurrency", "endpoint" => "sleep", "from" => 250, "to" => 50 },
                                 { "key" => "servers", "from" => [{}] * 15, "to" => [{}] * 3 }] }
        assert_equal "Scaled for this machine (--scale): concurrency of sleep 500 -> 100, 250 -> 50; " \
                     "servers 15 entries -> 3 entries. the question is the same", summary(stored_run(scaled: scaled)).scaled_text
      end

      def test_a_smoke_run_says_so
        scaled = { "by" => "smoke", "changes" => [{ "key" => "duration_s", "from" => 30, "to" => 1 }] }
        assert_equal "Smoke run (--smoke): duration_s 30 -> 1", summary(stored_run(scaled: scaled)).scaled_text
      end

      def test_the_conditions_are_the_wall_time_and_the_load_average_at_the_start
        run = stored_run.merge("finished_at" => "2026-01-01T00:12:05Z")
        run["machine"] = run["machine"].merge("loadavg" => [3.1, 2.0, 1.0])
        assert_equal "Wall time 12 min 5 s; load average (1 min) 3.1 at the start", summary(run).conditions_text
        assert_nil summary.conditions_text, "an unfinished run without a load reading says nothing"
      end

      def test_a_resumed_runs_wall_time_leaves_out_the_time_it_stood_stopped
        run = stored_run.merge("finished_at" => "2026-01-01T00:55:31Z")
        run["settings"] =
          run["settings"].merge("paused" => [{ "from" => "2026-01-01T00:02:31Z", "to" => "2026-01-01T00:46:31Z" }])
        assert_equal "Wall time 11 min 31 s (stopped and resumed; the 44 min 0 s between not counted)",
                     summary(run).conditions_text
      end

      def test_the_servers_cpus_are_set_against_the_articles_machine
        run = stored_run(article: { "machine" => "4 cores" }).merge("pinning" => { "server_cpus" => [0] })
        assert_equal "The article's machine: 4 cores. Here the server had 1 CPU, pinned (the load generator on another).",
                     summary(run).cpus_text
        unpinned = summary(stored_run(article: { "machine" => "4 cores" })).cpus_text
        assert_match "Here the server had 2 CPUs, not pinned (shared with the load generator)", unpinned
      end

      def test_cells_are_grouped_by_app_endpoint_and_concurrency_in_plan_order_with_a_title_each
        cells = [cell("puma", { "server" => "puma" }, endpoint: "hello", concurrency: 10),
                 cell("thin", { "server" => "thin" }, endpoint: "hello", concurrency: 10),
                 cell("puma", { "server" => "puma" }, endpoint: "hello", concurrency: 50)]
        groups = summary(stored_run, cells).groups
        assert_equal([2, 1], groups.map { |_, figures| figures.size })
        assert_equal(["rack hello at concurrency 10", "rack hello at concurrency 50"],
                     groups.map { |group, _| summary.title(group) })
      end

      def test_a_failure_is_listed_once_per_config_and_reason
        failed = ->(label) { cell(label, { "server" => "thin" }, status: "failed", reason: "exited") }
        failures = summary(stored_run, [failed.call("thin"), failed.call("thin"), failed.call("thin x2")]).failures
        assert_equal ["thin", "thin x2"], failures.map(&:label)
      end
    end
  end
end
