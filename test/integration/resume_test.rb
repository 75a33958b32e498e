# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # rackbench run --resume: a run killed half way (kill -9, so it is left
  # "running") continues with its stored settings and order; it ends as one
  # finished run with every cell measured once, the cells finished before the
  # kill untouched, and every cell with exactly its repeats.
  class ResumeTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")
    REPEATS = 2

    def suite
      write_suite("engine" => "native", "duration_s" => 0.5, "order" => "sequential", "repeats" => REPEATS,
                  "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "webrick" },
                                { "server" => "puma", "threads" => 4 }])
    end

    def stored
      store = Store.new(tmpdir)
      run = store.run
      [run, store.cells(run["id"]), store.repeats(run["id"])]
    rescue ConfigError, Sequel::DatabaseError
      [nil, [], {}]
    ensure
      store&.close
    end

    def kill_after_the_first_cell
      pid = Process.spawn(BIN, "run", "--results", tmpdir, suite, out: File::NULL, err: File::NULL)
      wait_until(timeout_s: 60, message: "the first cell finished") { stored[1].any? }
      Process.kill("KILL", pid)
      Process.wait(pid)
      wait_until(timeout_s: CLEANUP_DEADLINE_S, message: "nothing left") { leftovers(pid).empty? }
    end

    def test_a_run_killed_half_way_resumes_to_one_run_with_every_cell_measured_once
      kill_after_the_first_cell
      run, before, = stored
      assert_equal "running", run["status"], "kill -9 left no time to say otherwise"
      assert_operator before.size, :<, 3, "killed half way"

      out, err, status = Open3.capture3(BIN, "run", "--resume", "--results", tmpdir)
      assert_equal 0, status.exitstatus, "#{out}\n#{err}"
      assert_nothing_left(status.pid)

      run, after, repeats = stored
      assert_equal "finished", run["status"]
      store = Store.new(tmpdir)
      assert_equal 1, store.runs.size, "one run at the end"
      store.close
      assert_equal [1, 2, 3], after.map { |c| c["position"] }, "every cell once"
      assert_equal before, after.first(before.size), "the finished cells untouched"
      assert_equal [REPEATS] * 3, (1..3).map { |p| repeats.fetch(p).size }, "each cell its repeats, none twice"
      assert_equal(%w[ok ok ok], after.map { |c| c["status"] })
    end

    # A run stopped by what it needed (here a setup command that fails once)
    # failed, with that reason; once the cause is gone, it resumes.
    def test_a_failed_run_keeps_its_reason_and_resumes_to_a_finished_run
      marker = File.join(tmpdir, "setup-failed-once")
      setup = "test -e '#{marker}' || { touch '#{marker}'; exit 1; }"
      status, _out, err = run_cli("run", "--results", tmpdir, write_suite("duration_s" => 0.3, "setup" => [setup]))
      assert_equal 4, status, err
      run, = stored
      assert_equal "failed", run["status"]
      assert_match(/setup command .* failed/, run["reason"])

      status, out, err = run_cli("run", "--resume", "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      run, cells, = stored
      assert_equal ["finished", nil], run.values_at("status", "reason")
      assert_equal(%w[ok], cells.map { |c| c["status"] })
    end

    def test_a_finished_run_is_not_resumed
      status, _out, err = run_cli("run", "--results", tmpdir, write_suite("duration_s" => 0.3))
      assert_equal 0, status, err
      status, _out, err = run_cli("run", "--resume", "--results", tmpdir)
      assert_equal 2, status
      assert_match(/run \d+ is finished: only a failed or interrupted run can be resumed/, err)
      status, _out, err = run_cli("run", "--resume", "--results", tmpdir, "--duration", "2")
      assert_equal 2, status
      assert_match "--resume continues a run with its stored suite and settings", err
    end
  end
end
