# frozen_string_literal: true

# The watchdog's own process (started by Rackbench::Watchdog, never by hand):
#
#   ruby --disable-gems guard.rb OWNER_PID   < read end of a pipe   > "ready" when reading
#
# It reads "+PGID" / "-PGID" lines while rackbench lives. End of input means
# rackbench is gone, however it went (SIGKILL and the OOM killer included):
# the guard then sends SIGTERM to every recorded process group and to every
# process carrying OWNER_PID's marker, waits GRACE_S, SIGKILLs what is left,
# and exits.
require_relative "../process_table"

module Rackbench
  class Watchdog
    # Ends what a vanished rackbench left running.
    class Guard
      GRACE_S = 0.8

      # ready: where to say "ready" once reading (the Watchdog waits for it).
      def initialize(owner_pid, input, ready: nil, proc_dir: "/proc")
        @owner_pid = owner_pid
        @input = input
        @ready = ready
        @proc_dir = proc_dir
        @groups = []
      end

      def run
        # a terminal's Ctrl-C or hangup is rackbench's to handle; the guard outlives it
        %w[INT HUP QUIT TSTP].each { |sig| Signal.trap(sig, "IGNORE") }
        @ready&.puts("ready")
        @ready&.close
        @input.each_line { |line| record(line) }
        end_everything
      end

      def record(line)
        pgid = line[1..].to_i
        return unless pgid.positive?

        line.start_with?("+") ? @groups << pgid : @groups.delete(pgid)
      end

      def end_everything
        signal("TERM")
        deadline = now + GRACE_S
        sleep 0.02 while left.any? && now < deadline
        signal("KILL")
      end

      def left = ProcessTable.group_members(@groups, @proc_dir) | ProcessTable.marked(@owner_pid, @proc_dir)

      private

      def signal(sig)
        @groups.each { |pgid| kill(sig, -pgid) }
        ProcessTable.marked(@owner_pid, @proc_dir).each { |pid| kill(sig, pid) }
      end

      def kill(sig, pid)
        Process.kill(sig, pid)
      rescue SystemCallError
        nil
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end

Rackbench::Watchdog::Guard.new(Integer(ARGV.fetch(0)), $stdin, ready: $stdout).run if $PROGRAM_NAME == __FILE__
