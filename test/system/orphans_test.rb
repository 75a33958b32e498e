# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Processes whose rackbench is gone are found by their marker and ended;
  # those of a living rackbench are not.
  class OrphansTest < Minitest::Test
    # The pid of a process that has come and gone.
    def gone_pid
      pid = Process.spawn("true")
      Process.wait(pid)
      pid
    end

    def spawn_marked(owner_pid)
      pid = Process.spawn({ ProcessTable::OWNER_ENV => owner_pid.to_s }, "sleep", "300", pgroup: true)
      end_at_teardown(pid)
      wait_until(message: "marked sleep started") { ProcessTable.owners.key?(pid) }
      pid
    end

    def test_a_process_whose_rackbench_is_gone_is_an_orphan_and_is_ended
      owner = gone_pid
      pid = spawn_marked(owner)
      orphan = Orphans.new.find.find { |o| o.pid == pid }
      assert orphan, "found by its marker"
      assert_equal owner, orphan.owner_pid
      assert_equal "sleep 300", orphan.command
      Orphans.new.end_all([orphan])
      Process.wait(pid)
      refute ProcessTable.live?(pid)
    end

    def test_processes_of_a_living_rackbench_are_not_orphans
      pid = spawn_marked(Process.pid)
      refute_includes Orphans.new.find.map(&:pid), pid
    end

    # The marked process execs after forking a newer one and names it as its
    # owner: a live owner that started later only reused the pid.
    def test_an_owner_that_started_after_the_process_is_a_reused_pid_not_its_rackbench
      script = "sleep 300 & exec env #{ProcessTable::OWNER_ENV}=$! sleep 301"
      pid = Process.spawn("sh", "-c", script, pgroup: true)
      end_at_teardown(pid)
      owner = wait_until(message: "marked") { ProcessTable.owners[pid] }
      assert ProcessTable.live?(owner)
      assert_includes Orphans.new.find.map(&:pid), pid
    ensure
      Process.kill("KILL", -pid) if pid
    end

    def test_the_description_names_the_owner_and_the_processes
      orphans = [Orphans::Orphan.new(pid: 11, owner_pid: 7, command: "puma 6.4"),
                 Orphans::Orphan.new(pid: 12, owner_pid: 7, command: "sleep 300")]
      assert_equal "2 processes left by a rackbench that is gone (pid 7) still running: 11 puma 6.4; 12 sleep 300",
                   Orphans.describe(orphans)
    end
  end
end
