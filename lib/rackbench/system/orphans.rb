# frozen_string_literal: true

module Rackbench
  # Processes a rackbench started and left running after it was gone: found
  # by the marker the Supervisor puts in every child's environment, whose
  # owner is no longer alive (or is a newer process that reused its pid).
  # The watchdog normally ends them within a second; what it could not end
  # (it was killed too, or the machine was) is reported by `rackbench run`,
  # and ended by `rackbench run --clean`.
  #
  #   orphans = Orphans.new.find    # => [Orphan(pid, owner_pid, command)]
  #   Orphans.new.end_all(orphans)  # SIGTERM, a grace period, then SIGKILL
  class Orphans
    Orphan = Struct.new(:pid, :owner_pid, :command, keyword_init: true) do
      def to_s = "#{pid} #{command}"
    end

    GRACE_S = 2

    def initialize(proc_dir: Procfs::DIR)
      @proc_dir = proc_dir
    end

    def find
      ProcessTable.owners(@proc_dir).filter_map do |pid, owner|
        next if owner_alive?(pid, owner)

        Orphan.new(pid: pid, owner_pid: owner, command: command(pid))
      end
    end

    # Ends the orphans; returns those that were still there to end.
    def end_all(orphans)
      Supervisor.signal_pids(orphans.map(&:pid), "TERM")
      deadline = now + GRACE_S
      sleep 0.05 while orphans.any? { |o| ProcessTable.live?(o.pid, @proc_dir) } && now < deadline
      Supervisor.signal_pids(orphans.map(&:pid), "KILL")
      orphans
    end

    # One paragraph for the CLI: what is left, by whom, and what to do.
    def self.describe(orphans, limit: 5)
      owners = orphans.map(&:owner_pid).uniq.sort.join(", ")
      listed = orphans.first(limit).join("; ")
      more = orphans.size > limit ? "; and #{orphans.size - limit} more" : ""
      "#{orphans.size} process#{"es" unless orphans.size == 1} left by a rackbench that is gone (pid #{owners}) " \
        "still running: #{listed}#{more}"
    end

    private

    # The owner is alive if its pid is a live process that started before the
    # child, in an earlier clock tick (rackbench boots for longer than one
    # tick before it starts anything; a later process only reused the pid).
    def owner_alive?(pid, owner)
      return true if owner == Process.pid
      return false unless ProcessTable.live?(owner, @proc_dir)

      started = ProcessTable.start_ticks(owner, @proc_dir)
      started && started < ProcessTable.start_ticks(pid, @proc_dir).to_i
    end

    def command(pid)
      Procfs.command_line(pid, @proc_dir)&.[](0, 120) || "?"
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
