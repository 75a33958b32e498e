# frozen_string_literal: true

module Rackbench
  # The table of processes in /proc: states, groups, start times and the environment
  # marker the Supervisor puts on every child. Needs nothing else of
  # rackbench, so the watchdog's guard process loads it alone.
  #
  #   ProcessTable.marked(owner_pid)        # => pids started by the rackbench with that pid
  #   ProcessTable.owners                   # => { child_pid => owner_pid } of every marked process
  #   ProcessTable.stat_fields(pid)         # => [state, ppid, pgrp, ...] or nil when gone
  module ProcessTable
    OWNER_ENV = "RACKBENCH_SUPERVISOR_PID"
    # Index of starttime (field 22 of /proc/PID/stat) among the fields after "(comm)".
    START_TIME_INDEX = 19

    module_function

    def pids(proc_dir = "/proc")
      Dir.each_child(proc_dir).filter_map { |entry| entry.to_i if entry.match?(/\A\d+\z/) }
    end

    # /proc/PID/stat after "pid (comm) ": [state, ppid, pgrp, ...], or nil if gone.
    def stat_fields(pid, proc_dir = "/proc")
      stat = File.read("#{proc_dir}/#{pid}/stat")
      stat[(stat.rindex(")") + 2)..].split
    rescue SystemCallError
      nil
    end

    # True for a process that exists and is not a zombie.
    def live?(pid, proc_dir = "/proc")
      fields = stat_fields(pid, proc_dir)
      !fields.nil? && fields[0] != "Z"
    end

    # Clock ticks after boot at which pid started, or nil if it is gone.
    def start_ticks(pid, proc_dir = "/proc")
      stat_fields(pid, proc_dir)&.[](START_TIME_INDEX)&.to_i
    end

    # { pid => owner pid } of every live process carrying the Supervisor's marker.
    def owners(proc_dir = "/proc")
      pids(proc_dir).each_with_object({}) do |pid, found|
        next unless live?(pid, proc_dir)

        owner = File.binread("#{proc_dir}/#{pid}/environ")[/(?:\A|\0)#{OWNER_ENV}=(\d+)\0/o, 1]
        found[pid] = owner.to_i if owner
      rescue SystemCallError
        nil
      end
    end

    def marked(owner_pid, proc_dir = "/proc")
      owners(proc_dir).select { |_pid, owner| owner == owner_pid }.keys
    end

    # Live, non-zombie members of the process groups pgids.
    def group_members(pgids, proc_dir = "/proc")
      return [] if pgids.empty?

      pids(proc_dir).select do |pid|
        fields = stat_fields(pid, proc_dir)
        fields && fields[0] != "Z" && pgids.include?(fields[2].to_i)
      end
    end
  end
end
