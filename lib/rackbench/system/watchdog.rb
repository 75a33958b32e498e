# frozen_string_literal: true

require "io/wait"
require "rbconfig"

module Rackbench
  # Ties everything rackbench starts to rackbench's life. The Supervisor
  # starts one watchdog per rackbench process (Watchdog.current) and reports
  # each process group it spawns (#watch) and stops (#release). The watchdog
  # is a small separate process (watchdog/guard.rb) holding the read end of a
  # pipe whose only writer is rackbench: when rackbench ends by any path,
  # SIGKILL included, the kernel closes the pipe and the guard ends every
  # group still recorded and every process carrying rackbench's marker.
  class Watchdog
    GUARD = File.join(__dir__, "watchdog", "guard.rb")
    READY_TIMEOUT_S = 10
    CURRENT_LOCK = Mutex.new

    # The watchdog of this process (a forked child gets its own).
    # One per process even when threads spawn at once (Hosts::Fleet opens its
    # connections in parallel): a second guard, left unreferenced, would end
    # every child of rackbench when its pipe is collected.
    def self.current
      CURRENT_LOCK.synchronize do
        @current = nil if @current && @current.owner_pid != Process.pid
        @current ||= new
      end
    end

    attr_reader :owner_pid, :pid

    def initialize(owner_pid: Process.pid)
      @owner_pid = owner_pid
      @mutex = Mutex.new
      reader, @writer = IO.pipe # close-on-exec: no child of rackbench holds the writer
      ready, ready_writer = IO.pipe
      # a bare Ruby (no gems, no bundler from RUBYOPT): up and reading within milliseconds
      env = { ProcessTable::OWNER_ENV => nil, "RUBYOPT" => nil }
      @pid = Process.spawn(env, RbConfig.ruby, "--disable-gems", GUARD, owner_pid.to_s,
                           in: reader, out: ready_writer, err: File::NULL, pgroup: true, close_others: true)
      [reader, ready_writer].each(&:close)
      @waiter = Process.detach(@pid)
      wait_until_ready(ready)
    end

    def watch(pgid) = tell("+#{pgid}")
    def release(pgid) = tell("-#{pgid}")

    # Ends the guard now (it ends what it was told of first), and waits for it:
    # for a rackbench that replaces itself (exec), whose next children carry
    # the same marker the guard would end.
    def close
      @writer.close
      @waiter.join(READY_TIMEOUT_S)
    end

    private

    # The guard says "ready" once it reads the pipe; rackbench starts nothing before (READY_TIMEOUT_S at most).
    def wait_until_ready(ready)
      ready.gets if ready.wait_readable(READY_TIMEOUT_S)
    ensure
      ready.close
    end

    def tell(line)
      @mutex.synchronize { @writer.write("#{line}\n") }
    rescue IOError, SystemCallError
      nil # the guard is gone; the Supervisor still stops what it started
    end
  end
end
