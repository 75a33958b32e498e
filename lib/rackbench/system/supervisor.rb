# frozen_string_literal: true

require "tmpdir"

module Rackbench
  # The only code that spawns, waits on and signals processes.
  #
  # Every child starts in its own process group (pgroup: true) with stdout and
  # stderr captured to a log file. #stop sends the child's whole group a signal,
  # waits up to grace_s, then SIGKILLs the group. #stop_all runs on every exit
  # path: normal return, exceptions, and SIGINT/SIGTERM/SIGHUP of rackbench (#trap_signals).
  # Paths where no Ruby code runs (SIGKILL, the OOM killer) are the Watchdog's:
  # every group spawned here is recorded with it until #stop has ended it.
  class Supervisor
    # A started process: its pid (= its process group id), argv and log file.
    # stdin: the write end of the child's stdin when spawned with keep_stdin
    # (a remote process over SSH ends when it closes: see Hosts::Wrapper).
    Child = Struct.new(:pid, :argv, :log_path, :name, :status, :stdin, keyword_init: true) do
      def alive?
        return false if status

        pid_done, st = Process.waitpid2(pid, Process::WNOHANG)
        self.status = st if pid_done
        status.nil?
      rescue Errno::ECHILD
        self.status ||= :reaped
        false
      end

      def log_tail(lines = 20)
        return "" unless log_path && File.exist?(log_path)

        File.readlines(log_path, chomp: true).last(lines).join("\n")
      end
    end

    # What .run returns: a finished command's output streams and exit status.
    Finished = Struct.new(:stdout, :stderr, :status, keyword_init: true) do
      def output = stdout + stderr
    end

    DEFAULT_GRACE_S = 5
    # Every child's environment carries the supervising rackbench's pid, so a
    # process rackbench started can always be traced back to it (tests, the
    # watchdog and Orphans do).
    OWNER_ENV = ProcessTable::OWNER_ENV

    def initialize
      @children = []
      @mutex = Mutex.new
    end

    attr_reader :children

    # Runs argv to completion, outside any run (version probes, `bin/rails
    # routes`, `rackbench load` relaying an engine's output): a Finished with
    # stdout and stderr apart. timeout_s nil: no deadline.
    def self.run(argv, timeout_s:, env: {}, chdir: Dir.pwd)
      Dir.mktmpdir("rackbench-run") do |dir|
        out_path = File.join(dir, "stdout")
        err_path = File.join(dir, "stderr")
        supervisor = new
        child = supervisor.spawn(argv, name: File.basename(argv.first.to_s), log_path: out_path, err_path: err_path,
                                       env: env, chdir: chdir)
        supervisor.wait(child, timeout_s)
        Finished.new(stdout: File.read(out_path), stderr: File.read(err_path), status: child.status)
      ensure
        supervisor&.stop_all
      end
    end

    # Starts argv in a new process group. cpus: a list of CPU ids for taskset.
    # keep_stdin: the child reads a pipe that only this process writes, closed
    # when the child is stopped or this process ends (SIGKILL included).
    # err_path: where stderr goes when not into log_path with stdout.
    def spawn(argv, name:, log_path:, env: {}, chdir: Dir.pwd, cpus: nil, keep_stdin: false, err_path: nil)
      argv = argv.map(&:to_s)
      full = cpus ? ["taskset", "-c", cpus.join(","), *argv] : argv
      [log_path, err_path].compact.each { |path| File.write(path, "") }
      out = log_path ? [log_path, "a"] : File::NULL
      err = err_path ? [err_path, "a"] : %i[child out]
      reader, writer = keep_stdin ? IO.pipe : [File::NULL, nil]
      pid = Process.spawn(env.merge(OWNER_ENV => Process.pid.to_s), *full, chdir: chdir, pgroup: true, in: reader,
                                                                           out: out, err: err, close_others: true)
      reader.close if writer
      Watchdog.current.watch(pid)
      child = Child.new(pid: pid, argv: full, log_path: log_path, name: name, stdin: writer)
      @mutex.synchronize { @children << child }
      child
    end

    # Runs argv to completion (in its own group, so Ctrl-C reaches it through us).
    # Returns [stdout_string, Process::Status, argv as run (taskset included)].
    # Kills the group if the deadline passes.
    def capture(argv, name:, log_path:, timeout_s:, env: {}, cpus: nil, chdir: Dir.pwd)
      child = spawn(argv, name: name, log_path: log_path, env: env, cpus: cpus, chdir: chdir)
      wait(child, timeout_s)
      [File.read(log_path), child.status, child.argv]
    end

    # Waits for child to end (its status is then child.status); past
    # timeout_s (nil: never) stops its group and raises ServiceError.
    def wait(child, timeout_s)
      deadline = timeout_s && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s)
      while child.alive?
        if deadline && Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          stop(child, grace_s: 1)
          raise ServiceError.new("#{child.name} ran past its #{timeout_s}s deadline", log_tail: child.log_tail)
        end
        sleep 0.02
      end
      forget(child)
    end

    # Stops the child's process group: signal, grace period, then SIGKILL.
    def stop(child, signal: "TERM", grace_s: DEFAULT_GRACE_S)
      close_stdin(child)
      if child.alive?
        signal_group(child, signal)
        signal_group(child, "CONT") # a stopped (SIGSTOP) process acts on the signal only once continued
      end
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + grace_s
      sleep 0.02 while child.alive? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      # The leader may be gone while processes it forked remain in the group.
      signal_group(child, "KILL")
      reap(child)
      ProcessTable.wait_until_gone(2, interval_s: 0.01) { ProcessTable.group_members([child.pid]) }
      forget(child)
    end

    def stop_all
      @children.dup.reverse_each { |c| stop(c, grace_s: 2) }
    end

    SIGNALS = %w[INT TERM HUP].freeze

    # Turns SIGINT/SIGTERM/SIGHUP into a SignalException in the main thread,
    # so every ensure block runs (children stopped, the run marked
    # interrupted); the CLI then exits with 128 + the signal number, as a
    # shell would. Only the first signal raises: a second one (an impatient
    # Ctrl-C) during that cleanup is noted and ignored, so the cleanup
    # finishes and the run is still marked interrupted. What no handler can
    # catch (SIGKILL) is the Watchdog's.
    def trap_signals
      @signalled = nil
      SIGNALS.each do |sig|
        Signal.trap(sig) do
          next if @signalled

          @signalled = sig
          raise SignalException, sig
        end
      end
    end

    # The first signal trapped by #trap_signals, or nil.
    attr_reader :signalled

    # Once the cleanup is done, the exit status is decided: further signals
    # are ignored so that they cannot change it on the way out.
    def ignore_signals
      SIGNALS.each { |sig| Signal.trap(sig, "IGNORE") }
    end

    # Pids of live processes that a supervisor in process owner_pid started,
    # found through their environment (what tests use to prove nothing is left).
    def self.processes_of(owner_pid, proc_dir: Procfs::DIR)
      ProcessTable.marked(owner_pid, proc_dir)
    end

    # Sends signal to each of pids, processes outside the groups of this
    # supervisor's children (pitchfork's molds, a Passenger session, what a
    # rackbench that is gone left behind); those already gone are skipped.
    def self.signal_pids(pids, signal)
      pids.each do |pid|
        Process.kill(signal, pid)
      rescue Errno::ESRCH, Errno::EPERM
        nil
      end
    end

    # True while any live (non-zombie) process of the child's group exists.
    def group_alive?(child, proc_dir: Procfs::DIR)
      ProcessTable.group_members([child.pid], proc_dir).any?
    end

    private

    def signal_group(child, signal)
      Process.kill(signal, -child.pid)
    rescue Errno::ESRCH, Errno::EPERM
      nil
    end

    def reap(child)
      Process.waitpid(child.pid) unless child.status
    rescue Errno::ECHILD
      nil
    end

    def close_stdin(child)
      child.stdin.close if child.stdin && !child.stdin.closed?
    end

    def forget(child)
      close_stdin(child)
      @mutex.synchronize { @children.delete(child) }
      Watchdog.current.release(child.pid)
    end
  end
end
