# frozen_string_literal: true

require "test_helper"
require_relative "fixture_app_helper"

module Rackbench
  # The app's own PostgreSQL is part of the system under test: an app that
  # queries it (test/fixtures/pg_app), a PostgreSQL already running (started
  # here, named in depends_on: by its port) or one the suite starts
  # (services:; reset_test's runs check that one), sampled beside the server
  # and shown in every report.
  class DependenciesTest < Minitest::Test
    include FixtureAppHelper

    def teardown
      @postgres&.stop(@supervisor)
      @supervisor&.stop_all
      super
    end

    def running_postgres
      @supervisor = Supervisor.new
      @postgres = Services.fetch("postgres").new("service" => "postgres")
      why = Services.fetch("postgres").unavailable_reason
      skip "postgres cannot run here: #{why}" if why
      @postgres.start(@supervisor, FileUtils.mkdir_p(File.join(tmpdir, "pg")).first)
      @postgres.url
    end

    def report(results, format)
      out, err, status = Bundler.with_unbundled_env { Open3.capture3(BIN, "report", "--results", results, "--format", format) }
      assert status.success?, err
      out
    end

    def test_a_running_postgresql_named_by_port_is_sampled_beside_the_server_and_shown_in_every_report
      url = running_postgres
      port = Integer(url[%r{:(\d+)/}, 1])
      app = fixture_app("pg_app")
      results = File.join(tmpdir, "results")
      suite = fixture_suite(app, "env" => { "DATABASE_URL" => url }, "concurrency" => [4],
                                 "endpoints" => [{ "path" => "/count", "expect_status" => 200 }],
                                 "depends_on" => [{ "name" => "postgres", "port" => port }],
                                 "servers" => [{ "server" => "puma", "threads" => 4 }])
      status, out, pid = rackbench("run", suite, "--results", results)
      assert status.success?, out

      cell = json_report(results)["cells"].first
      postgres = cell["dependencies"]["postgres"]
      assert_operator postgres["cpu_percent"], :>, 0, "every request queried it"
      assert_operator postgres["memory_bytes"], :>, 0
      refute_empty postgres["cpus_seen"], "where it ran is recorded"
      refute_empty postgres["cpus_allowed"]
      cell["repeats"].each do |repeat|
        busiest = repeat["noise"]["other_busiest"].to_a.map { |p| p["command"] }
        refute_includes busiest, "postgres", "the app's database is not an other process"
        assert_operator repeat["noise"]["known_cpu_s"], :>, repeat["resources"]["cpu_s"], "its CPU is known beside the server's"
      end
      line = %r{puma x0:4 /count c=4: server \d+ % CPU, \d+ MB; postgres \d+ % CPU, \d+ MB}
      assert_match line, report(results, "table")
      assert_match line, report(results, "markdown")
      assert_match line, File.read(report(results, "html").strip)
      assert_nothing_left(pid)
    end

    def test_a_dependency_that_is_not_running_stops_the_run_before_anything_is_measured
      app = fixture_app("pg_app")
      port = Servers::Base.free_port
      suite = fixture_suite(app, "env" => { "DATABASE_URL" => "postgresql://127.0.0.1:#{port}/x" }, "endpoints" => ["/count"],
                                 "depends_on" => [{ "name" => "postgres", "port" => port }],
                                 "servers" => [{ "server" => "puma", "threads" => 2 }])
      status, out, pid = rackbench("run", suite, "--results", File.join(tmpdir, "results"))
      refute status.success?
      assert_includes out, "depends_on postgres: nothing this user can see listens on port #{port}"
      assert_nothing_left(pid)
    end
  end
end
