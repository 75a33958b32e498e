# frozen_string_literal: true

require "test_helper"
require_relative "fixture_app_helper"

module Rackbench
  # Each server entry of a suite carries its own env (merged over the
  # suite's) and setup: the pooled fixture app sizes its pool from
  # MAX_THREADS under puma and from THREADS under iodine.
  class PerServerTest < Minitest::Test
    include FixtureAppHelper

    def test_two_servers_that_each_need_their_own_variable_both_run_from_one_suite
      app = fixture_app("pooled")
      results = File.join(tmpdir, "results")
      health = { "path" => "/health", "expect_body" => "ok pool=" }
      suite = fixture_suite(app, "env" => { "WEB_CONCURRENCY" => 0 }, "endpoints" => [health],
                                 "servers" => [
                                   { "server" => "puma", "threads" => 2, "env" => { "MAX_THREADS" => 2 } },
                                   { "server" => "iodine", "threads" => 3, "env" => { "THREADS" => 3 },
                                     "setup" => ["echo \"iodine pool $THREADS, $WEB_CONCURRENCY workers\" > setup.txt"] }
                                 ])
      status, out, pid = rackbench("run", suite, "--results", results)
      assert status.success?, out
      cells = json_report(results)["cells"]
      assert_equal(%w[ok ok], cells.map { |c| c["status"] }, cells.map { |c| c["reason"] }.compact.join("\n"))
      assert_equal "iodine pool 3, 0 workers\n", File.read(File.join(app, "setup.txt")),
                   "iodine's setup ran in the app's folder with its env over the suite's"
      assert_nothing_left(pid)
    end

    def test_without_its_variable_a_server_fails_alone_and_says_which
      app = fixture_app("pooled")
      cells = Bundler.with_unbundled_env do # as an installed rackbench runs: outside any bundle
        store = Store.new(File.join(tmpdir, "results"))
        suite = Suite.load(fixture_suite(app, "env" => { "WEB_CONCURRENCY" => 0, "MAX_THREADS" => 2 }, "endpoints" => ["/health"],
                                              "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "iodine" }]))
        store.cells(Runner.new(suite, store: store).run)
      ensure
        store&.close
      end
      assert_equal(%w[ok failed], cells.map { |c| c["status"] }, cells.map { |c| c["reason"] }.join("\n"))
      assert_match(/\Aiodine exited before it was ready \(exit 1\): pool\.rb:5: key not found: "THREADS" \(KeyError\); log: runs/,
                   cells[1]["reason"])
      assert_nothing_left
    end

    def test_a_failing_setup_of_one_server_fails_that_servers_cells_only
      app = fixture_app("pooled")
      cells = begin
        store = Store.new(File.join(tmpdir, "results"))
        suite = Suite.load(fixture_suite(app, "env" => { "WEB_CONCURRENCY" => 0, "MAX_THREADS" => 2, "THREADS" => 2 },
                                              "endpoints" => ["/health"],
                                              "servers" => [{ "server" => "puma", "threads" => 2 },
                                                            { "server" => "iodine",
                                                              "setup" => ["echo 'no such table' >&2; exit 4"] }]))
        store.cells(Runner.new(suite, store: store).run)
      ensure
        store&.close
      end
      assert_equal(%w[ok failed], cells.map { |c| c["status"] }, cells.map { |c| c["reason"] }.join("\n"))
      assert_equal "setup command \"echo 'no such table' >&2; exit 4\" failed (exit 4): no such table; " \
                   "log: runs/1/02-iodine/setup/setup-1.log", cells[1]["reason"]
      assert_nothing_left
    end
  end
end
