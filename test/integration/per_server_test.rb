# frozen_string_literal: true

require "test_helper"
require_relative "fixture_app_helper"

module Rackbench
  # Each server entry of a suite carries its own env (merged over the
  # suite's) and setup: the pooled fixture app sizes its pool from
  # MAX_THREADS under puma and from THREADS under iodine. The fixture's
  # bundle is installed once a file; the two tests of a server that fails
  # alone read one run (a puma that serves, an iodine without its variable,
  # an iodine whose setup fails). Every window is open loop at a low rate and
  # the ratios come from the windows in turns: what is checked is which
  # server ran with what, not a saturated server's throughput.
  class PerServerTest < Minitest::Test
    include FixtureAppHelper

    LIGHT = { "rate" => 50, "ratio" => "turns" }.freeze

    class << self
      attr_accessor :failing_run
    end

    def pooled_app = installed_fixture_app("pooled")

    def test_two_servers_that_each_need_their_own_variable_both_run_from_one_suite
      app = pooled_app
      results = File.join(tmpdir, "results")
      health = { "path" => "/health", "expect_body" => "ok pool=" }
      setup = "echo \"iodine pool $THREADS, $WEB_CONCURRENCY workers\" > setup.txt"
      servers = [{ "server" => "puma", "threads" => 2, "env" => { "MAX_THREADS" => 2 } },
                 { "server" => "iodine", "threads" => 3, "env" => { "THREADS" => 3 }, "setup" => [setup] }]
      suite = fixture_suite(app, LIGHT.merge("env" => { "WEB_CONCURRENCY" => 0 }, "endpoints" => [health], "servers" => servers))
      status, out, pid = rackbench("run", suite, "--results", results)
      assert status.success?, out
      cells = json_report(results)["cells"]
      assert_equal(%w[ok ok], cells.map { |c| c["status"] }, cells.map { |c| c["reason"] }.compact.join("\n"))
      assert_equal "iodine pool 3, 0 workers\n", File.read(File.join(app, "setup.txt")),
                   "iodine's setup ran in the app's folder with its env over the suite's"
      assert_nothing_left(pid)
    end

    # The cells of one run, made once a file, as an installed rackbench runs (outside any bundle): puma
    # with its MAX_THREADS, iodine without THREADS, and iodine with THREADS whose setup fails.
    def failing_run
      self.class.failing_run ||= Bundler.with_unbundled_env do
        store = Store.new(File.join(tmpdir, "results"))
        servers = [{ "server" => "puma", "threads" => 2 }, { "server" => "iodine" },
                   { "server" => "iodine", "env" => { "THREADS" => 2 }, "setup" => ["echo 'no such table' >&2; exit 4"] }]
        suite = Suite.load(fixture_suite(pooled_app, LIGHT.merge("env" => { "WEB_CONCURRENCY" => 0, "MAX_THREADS" => 2 },
                                                                 "endpoints" => ["/health"], "servers" => servers)))
        store.cells(Runner.new(suite, store: store).run)
      ensure
        store&.close
      end
    end

    def test_without_its_variable_a_server_fails_alone_and_says_which
      cells = failing_run
      assert_equal(%w[ok failed], cells.first(2).map { |c| c["status"] }, cells.map { |c| c["reason"] }.join("\n"))
      assert_match(/\Aiodine exited before it was ready \(exit 1\): pool\.rb:5: key not found: "THREADS" \(KeyError\); log: runs/,
                   cells[1]["reason"])
      assert_nothing_left
    end

    def test_a_failing_setup_of_one_server_fails_that_servers_cells_only
      cells = failing_run
      assert_equal(%w[ok failed], cells.values_at(0, 2).map { |c| c["status"] }, cells.map { |c| c["reason"] }.join("\n"))
      assert_equal "setup command \"echo 'no such table' >&2; exit 4\" failed (exit 4): no such table; " \
                   "log: runs/1/03-iodine/setup/setup-1.log", cells[2]["reason"]
      assert_nothing_left
    end
  end
end
