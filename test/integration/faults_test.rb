# frozen_string_literal: true

require "test_helper"
require "open3"
require "socket"

module Rackbench
  # Faults of servers become failed cells with their reason; rackbench goes on
  # and leaves nothing running.
  class FaultsTest < Minitest::Test
    def run_suite(extra, supervisor = Supervisor.new)
      store = Store.new(tmpdir)
      suite = Suite.load(write_suite(extra))
      run_id = Runner.new(suite, store: store, supervisor: supervisor).run
      [store.run(run_id), store.cells(run_id)]
    ensure
      store&.close
    end

    def test_a_port_in_use_fails_the_cell_with_the_servers_own_words
      squatter = TCPServer.new("127.0.0.1", 0)
      run, cells = run_suite("servers" => [{ "server" => "puma", "threads" => 2, "port" => squatter.addr[1] },
                                           { "server" => "puma", "threads" => 2 }])
      assert_equal "finished", run["status"]
      assert_equal(%w[failed ok], cells.map { |c| c["status"] })
      assert_match(/exited before it was ready|not ready/, cells[0]["reason"])
      assert_match(/Address already in use|EADDRINUSE/i, cells[0]["log_tail"])
      assert_nothing_left
    ensure
      squatter&.close
    end

    def test_a_server_that_never_becomes_ready_times_out_and_is_stopped
      app = write_rackup("sleep 60\nrun ->(_) { [200, {}, ['late']] }\n")
      spawned = []
      supervisor = Supervisor.new
      supervisor.define_singleton_method(:spawn) do |argv, **options|
        spawned << options[:name]
        super(argv, **options)
      end
      _run, cells = run_suite({ "app" => app, "ready_timeout_s" => 2, "concurrency" => [1, 2, 4] }, supervisor)
      assert_equal(%w[failed failed failed], cells.map { |c| c["status"] })
      assert_match "not ready after 2s", cells[0]["reason"]
      assert_equal([cells[0]["reason"]] * 3, cells.map { |c| c["reason"] })
      assert_equal 1, spawned.size,
                   "the group's other cells fail at once instead of starting the server and waiting again: #{spawned}"
      assert_nothing_left
    end

    def test_a_server_that_dies_during_the_load_is_recorded_and_the_next_config_still_runs
      app = write_rackup(<<~RUBY)
        count = 0
        run lambda { |_env|
          count += 1
          Process.kill(:KILL, Process.pid) if count > 200
          [200, { "content-type" => "text/plain" }, ["hello world"]]
        }
      RUBY
      _run, cells = run_suite("app" => app, "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "webrick" }])
      assert_equal "failed", cells[0]["status"]
      assert_match(/exited during the load|failed|not ready/, cells[0]["reason"])
      assert_equal "puma", cells[0]["server"]
      assert_equal "webrick", cells[1]["server"]
      assert_nothing_left
    end

    def test_a_wrong_answer_stops_the_cell_before_it_is_measured
      _run, cells = run_suite("endpoints" => [{ "path" => "/hello", "expect_body" => "goodbye" }])
      assert_equal "failed", cells[0]["status"]
      assert_match 'verify GET /hello: body does not contain "goodbye"', cells[0]["reason"]
      assert_nil cells[0]["requests_per_s"]
    end

    def test_sigterm_to_a_running_rackbench_leaves_no_server_behind_and_marks_the_run_interrupted
      suite = write_suite("duration_s" => 30, "servers" => [{ "server" => "puma", "workers" => 2, "threads" => 2 }])
      pid = nil
      Open3.popen2e(File.join(ROOT, "bin", "rackbench"), "run", "--results", tmpdir, suite) do |_in, out, thread|
        pid = thread.pid
        wait_until(timeout_s: 30, message: "puma workers up") { leftovers(pid).size >= 3 }
        Process.kill("TERM", pid)
        assert_equal 128 + 15, thread.value.exitstatus
        assert_match "interrupted by SIGTERM", out.read
      end
      assert_nothing_left(pid)
      store = Store.new(tmpdir)
      assert_equal "interrupted", store.run["status"]
      store.close
    end

    def test_a_cell_the_engine_cannot_measure_fails_with_the_reason_and_the_suite_goes_on
      _run, cells = run_suite("engine" => "ab", "servers" => [{ "server" => "puma", "threads" => 2, "bind" => "unix" },
                                                              { "server" => "puma", "threads" => 2 }])
      assert_equal(%w[failed ok], cells.map { |c| c["status"] })
      assert_match "engine ab cannot target a Unix socket", cells[0]["reason"]
    end

    def test_a_window_in_which_no_response_completes_is_a_failed_cell_not_a_zero
      _run, cells = run_suite("endpoints" => ["/sleep/1500"], "duration_s" => 0.5, "timeout_s" => 5)
      assert_equal "failed", cells[0]["status"]
      reason = cells[0]["reason"]
      assert_match(/\Ano request completed in the measured [\d.]+ s \(0 errors; /, reason)
      # Where others held the measured CPUs through the first window, it was measured again, and says so.
      again = "(; measured again after a window they held at \\d+ %)?"
      assert_match(/; other processes used \d+ % of the measured CPUs#{again}\): the server stalled/, reason,
                   "the window's noise is named: a starved server looks like a stalled one")
    end

    def test_bad_input_is_one_line_naming_the_key_and_nothing_starts
      path = write_suite("servers" => [{ "server" => "puma", "workerz" => 2 }])
      status, out, err = run_cli("run", "--results", tmpdir, path)
      assert_equal 2, status
      assert_equal "", out
      assert_equal 1, err.lines.size
      assert_match(/suite.yml:\d+: servers.0.workerz server puma: unknown key "workerz"/, err)
      assert_nothing_left
      refute File.exist?(File.join(tmpdir, Store::FILE)), "no results store is written for a suite that fails validation"
    end
  end
end
