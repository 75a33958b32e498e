# frozen_string_literal: true

require_relative "procfs"

module Rackbench
  # The table of processes (read through Procfs): liveness, groups, start
  # times and the environment marker the Supervisor puts on every child.
  # Needs nothing else of rackbench, so the watchdog's guard process loads it
  # alone.
  #
  #   ProcessTable.marked(owner_pid)        # => pids started by the rackbench with that pid
  #   ProcessTable.owners                   # => { child_pid => owner_pid } of every marked process
  #   ProcessTable.live?(pid)               # => false once it is gone or a zombie
  module ProcessTable
    OWNER_ENV = "RACKBENCH_SUPERVISOR_PID"

    module_function

    def pids(proc_dir = Procfs::DIR) = Procfs.pids(proc_dir)

    # True for a process that exists and is not a zombie.
    def live?(pid, proc_dir = Procfs::DIR)
      stat = Procfs.process_stat(pid, proc_dir)
      !stat.nil? && !stat.zombie?
    end

    # Clock ticks after boot at which pid started, or nil if it is gone.
    def start_ticks(pid, proc_dir = Procfs::DIR)
      Procfs.process_stat(pid, proc_dir)&.start_ticks
    end

    # { pid => owner pid } of every live process carrying the Supervisor's marker.
    def owners(proc_dir = Procfs::DIR)
      pids(proc_dir).each_with_object({}) do |pid, found|
        next unless live?(pid, proc_dir)

        owner = Procfs.environ_value(pid, OWNER_ENV, proc_dir)
        found[pid] = owner.to_i if owner&.match?(/\A\d+\z/)
      end
    end

    def marked(owner_pid, proc_dir = Procfs::DIR)
      owners(proc_dir).select { |_pid, owner| owner == owner_pid }.keys
    end

    # Live, non-zombie members of the process groups pgids. Groups of this
    # machine's table with no process at all (kill(2) of signal 0 to the
    # group: ESRCH) are known empty without reading the table.
    def group_members(pgids, proc_dir = Procfs::DIR)
      pgids = pgids.select { |pgid| group_exists?(pgid) } if proc_dir == Procfs::DIR
      return [] if pgids.empty?

      Procfs.process_stats(proc_dir).filter_map { |stat| stat.pid if !stat.zombie? && pgids.include?(stat.pgrp) }
    end

    # Whether any process (a zombie too) is in the group pgid.
    def group_exists?(pgid)
      Process.kill(0, -pgid)
      true
    rescue Errno::ESRCH
      false
    rescue Errno::EPERM
      true
    end

    # Live, non-zombie members of the session sid.
    def session_members(sid, proc_dir = Procfs::DIR)
      Procfs.process_stats(proc_dir).filter_map { |stat| stat.pid if !stat.zombie? && stat.session == sid }
    end

    # Waits up to timeout_s until the block (a read of the whole table:
    # group_members, session_members) finds no live process. Meanwhile it
    # watches those found through their own stat lines (0.05 ms of CPU each,
    # where the whole table cost 5-30 ms on a loaded machine, and a stop
    # used to read it every 10 ms), and reads the table again once they are
    # gone, for any started meanwhile. Returns what the last read found.
    #
    #   ProcessTable.wait_until_gone(2, interval_s: 0.01) { ProcessTable.group_members([pgid]) }   # => []
    def wait_until_gone(timeout_s, interval_s:, proc_dir: Procfs::DIR)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
      left = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline }
      loop do
        members = yield
        return members if members.empty? || !left.call

        sleep interval_s while members.any? { |pid| live?(pid, proc_dir) } && left.call
      end
    end
  end
end
