# frozen_string_literal: true

require "test_helper"

module Rackbench
  class SupervisorTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @supervisor.stop_all
      super
    end

    # A shell that leaves a grandchild behind, which ignores TERM.
    def stubborn_tree
      @supervisor.spawn(["sh", "-c", "sh -c 'trap \"\" TERM; sleep 300' & sleep 300"],
                        name: "tree", log_path: File.join(tmpdir, "tree.log"))
    end

    def test_stop_ends_the_whole_process_group_grandchildren_included
      child = stubborn_tree
      wait_until(message: "two processes") { leftovers.size >= 3 }
      @supervisor.stop(child, grace_s: 0.5)
      refute @supervisor.group_alive?(child)
      assert_nothing_left
    end

    def test_a_child_writes_its_output_to_its_log
      child = @supervisor.spawn(["sh", "-c", "echo started; echo oops >&2"], name: "echo",
                                                                             log_path: File.join(tmpdir, "echo.log"))
      wait_until { !child.alive? }
      assert_equal "started\noops", child.log_tail
    end

    def test_capture_gives_up_at_its_deadline_and_kills_the_group
      error = assert_raises(ServiceError) do
        @supervisor.capture(%w[sleep 30], name: "sleeper", log_path: File.join(tmpdir, "s.log"), timeout_s: 0.3)
      end
      assert_match "sleeper ran past its 0.3s deadline", error.message
      assert_nothing_left
    end

    def test_run_gives_a_finished_commands_streams_apart_and_its_status
      finished = Supervisor.run(["sh", "-c", "echo out; echo err >&2; exit 3"], timeout_s: 10)
      assert_equal ["out\n", "err\n", 3], [finished.stdout, finished.stderr, finished.status.exitstatus]
      assert_equal "out\nerr\n", finished.output
      assert_nothing_left
    end

    def test_run_stops_a_command_at_its_deadline
      error = assert_raises(ServiceError) { Supervisor.run(%w[sleep 30], timeout_s: 0.3) }
      assert_match "sleep ran past its 0.3s deadline", error.message
      assert_nothing_left
    end

    def test_signal_pids_skips_processes_that_are_gone
      child = @supervisor.spawn(%w[sleep 30], name: "sleeper", log_path: File.join(tmpdir, "s.log"))
      gone = Process.spawn("true")
      Process.wait(gone)
      Supervisor.signal_pids([gone, child.pid], "KILL")
      wait_until(message: "the sleeper killed") { !child.alive? }
      assert_equal 9, child.status.termsig
    end

    def test_children_carry_the_supervisors_pid_in_their_environment
      @supervisor.spawn(%w[sleep 30], name: "sleeper", log_path: File.join(tmpdir, "s.log"))
      assert_equal 1, wait_until { leftovers.size == 1 && leftovers }.size
    end
  end
end
