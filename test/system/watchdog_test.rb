# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # Whatever a rackbench started ends once rackbench ends by any signal,
  # SIGKILL included: the watchdog's pipe closes and its guard ends
  # every recorded group and every process carrying rackbench's marker.
  class WatchdogTest < Minitest::Test
    # A rackbench stand-in: a Supervisor that starts a process group (a shell
    # whose grandchild ignores SIGTERM) and a process that leaves its group
    # (setsid), then waits to be killed.
    OWNER = <<~RUBY
      require "rackbench"
      supervisor = Rackbench::Supervisor.new
      supervisor.trap_signals
      supervisor.spawn(["sh", "-c", "sh -c 'trap \\"\\" TERM; sleep 300' & sleep 300"], name: "tree", log_path: nil)
      supervisor.spawn(["setsid", "sleep", "300"], name: "escaped", log_path: nil)
      puts Rackbench::Watchdog.current.pid
      $stdout.flush
      sleep 300
    RUBY

    def start_owner
      stdin, stdout, thread = Open3.popen2(RbConfig.ruby, "-I#{File.join(ROOT, "lib")}", "-e", OWNER)
      stdin.close
      guard = Integer(stdout.gets)
      wait_until(message: "four processes started") { leftovers(thread.pid).size >= 4 }
      [thread, guard]
    ensure
      (@owners ||= []) << thread if thread
    end

    # Should the guard fail, the test still ends what its stand-in started.
    def teardown
      (@owners || []).each do |thread|
        begin
          Process.kill("KILL", thread.pid)
        rescue Errno::ESRCH
          nil
        end
        thread.join
        leftovers(thread.pid).each { |pid| Process.kill("KILL", pid) rescue nil } # rubocop:disable Style/RescueModifier
      end
      super
    end

    def assert_everything_ends(thread, guard)
      thread.join
      wait_until(timeout_s: CLEANUP_DEADLINE_S, message: "everything it started ended") { leftovers(thread.pid).empty? }
      wait_until(timeout_s: CLEANUP_DEADLINE_S, message: "the guard itself exited") { !ProcessTable.live?(guard) }
    end

    def test_sigkill_of_the_owner_ends_every_group_and_every_marked_process
      thread, guard = start_owner
      Process.kill("KILL", thread.pid)
      assert_everything_ends(thread, guard)
    end

    def test_a_signal_the_owner_does_not_handle_ends_them_too
      thread, guard = start_owner
      Process.kill("USR2", thread.pid)
      assert_everything_ends(thread, guard)
      assert_equal Signal.list["USR2"], thread.value.termsig
    end

    def test_while_the_owner_lives_the_guard_leaves_everything_alone
      thread, guard = start_owner
      assert ProcessTable.live?(guard)
      assert_operator leftovers(thread.pid).size, :>=, 4
      refute_includes leftovers(thread.pid), guard, "the guard carries no marker of its own"
    end

    # A rackbench about to replace itself (`run --install` execs) closes its
    # watchdog first: the guard has ended what it was told of, and exited, by
    # the time close returns, so it cannot end the next program's children.
    def test_close_returns_once_the_guard_ended_what_it_watched_and_exited
      watchdog = Watchdog.new
      supervisor = Supervisor.new
      child = supervisor.spawn(%w[sleep 300], name: "sleep", log_path: nil)
      watchdog.watch(child.pid)
      watchdog.close
      refute ProcessTable.live?(watchdog.pid), "the guard exited"
      wait_until(message: "the watched group ended") { !child.alive? }
    ensure
      supervisor&.stop_all
    end
  end
end
