# frozen_string_literal: true

require "test_helper"

module Rackbench
  # SIGINT, SIGTERM and SIGHUP at a random moment of a real run, after its
  # first cell finished: rackbench exits 128 + N, the run is marked
  # interrupted, the finished cell is kept as it was, and nothing is left
  # running. A second signal during the cleanup changes none of that.
  class SignalsTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")

    # Open loop at 50 req/s in 0.5 s windows: what is signalled is a run
    # between cells, which needs no saturated server (three starts still
    # take longer than the 0.8 s of the random moment).
    def start_run
      suite = write_suite("engine" => "native", "duration_s" => 0.5, "rate" => 50, "order" => "sequential",
                          "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "webrick" },
                                        { "server" => "puma", "threads" => 4 }])
      log = File.join(tmpdir, "rackbench.log")
      pid = Process.spawn(BIN, "run", "--results", tmpdir, suite, out: log, err: log)
      end_at_teardown(pid)
    end

    def stored_cells
      return [] unless File.exist?(File.join(tmpdir, Store::FILE))

      store = Store.new(tmpdir)
      store.run ? store.cells(store.run["id"]) : []
    rescue ConfigError, Sequel::DatabaseError
      []
    ensure
      store&.close
    end

    # Looked for 4 times a second (the store opened 20 times a second for
    # the tens of seconds a loaded machine takes to get there cost CPU).
    def wait_for_a_finished_cell
      wait_until(timeout_s: 60, message: "the first cell finished") do
        sleep 0.2
        stored_cells.first
      end
    end

    # Interrupts a run with sig at a random moment after its first cell; returns [exit status, first cell before].
    def interrupt(sig, again: nil)
      pid = start_run
      first = wait_for_a_finished_cell
      seed = Random.new_seed
      sleep Random.new(seed).rand(0.0..0.8) # the random moment is the experiment
      running = leftovers(pid)
      Process.kill(sig, pid)
      status = again ? keep_signalling(pid, again, running) : Process.wait2(pid).last
      assert_nothing_left(pid)
      [status, first]
    end

    # An impatient user: once the cleanup has begun (a process of the run is
    # gone, or there was none), another signal every few ms until rackbench is
    # gone. Returns its exit status.
    def keep_signalling(pid, sig, running)
      wait_until(timeout_s: 30, message: "the cleanup began") do
        running.empty? || (running - leftovers(pid)).any? || !ProcessTable.live?(pid)
      end
      loop do
        _, status = Process.waitpid2(pid, Process::WNOHANG)
        return status if status

        Process.kill(sig, pid)
        sleep 0.005
      end
    end

    def assert_interrupted(status, sig, first)
      assert_equal 128 + Signal.list[sig], status.exitstatus, File.read(File.join(tmpdir, "rackbench.log"))
      store = Store.new(tmpdir)
      assert_equal "interrupted", store.run["status"]
      kept = store.cells(store.run["id"]).first
      assert_equal first.except("id"), kept.except("id"), "the finished cell is kept as it was"
      assert_equal "ok", kept["status"]
    ensure
      store&.close
    end

    %w[INT TERM HUP].each do |sig|
      define_method("test_sig#{sig.downcase}_keeps_the_finished_cells_marks_the_run_interrupted_and_leaves_nothing") do
        status, first = interrupt(sig)
        assert_interrupted(status, sig, first)
      end
    end

    # Which of two signals arriving together Ruby handles first is its
    # choice (the lower number, when both are pending); the first one handled
    # decides the exit status, and the run is interrupted either way.
    def test_a_second_signal_during_the_cleanup_still_leaves_the_run_marked_interrupted
      status, first = interrupt("TERM", again: "INT")
      first_handled = status.exitstatus == 128 + Signal.list["INT"] ? "INT" : "TERM"
      assert_interrupted(status, first_handled, first)
    end
  end
end
