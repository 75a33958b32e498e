# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require_relative "wrapper"

module Rackbench
  module Hosts
    # One multiplexed OpenSSH connection to a Host (ControlMaster), opened by
    # Hosts::Fleet for the length of a run. The master is a child of the
    # Supervisor like any other process, so it ends with rackbench; every
    # command then rides on it (no new handshake per command).
    #
    #   conn = Connection.new(host, supervisor: supervisor, dir: run_dir).open
    #   conn.capture("uname -m")                       # => "x86_64\n" (bounded by timeout_s)
    #   child = conn.spawn(argv, name:, log_path:, env:, chdir:)   # ends when rackbench does
    #   conn.close
    class Connection
      CONNECT_TIMEOUT_S = 10
      COMMAND_TIMEOUT_S = 30
      # Keepalives: a connection silent for 3 x 2 s is dead, and so are its commands.
      OPTIONS = ["BatchMode=yes", "ConnectTimeout=#{CONNECT_TIMEOUT_S}", "ServerAliveInterval=2",
                 "ServerAliveCountMax=3"].freeze

      attr_reader :host

      def initialize(host, supervisor:, dir:)
        @host = host
        @supervisor = supervisor
        @dir = dir
        @mutex = Mutex.new
        @captures = 0
      end

      def open
        @tmp = Dir.mktmpdir("rb-ssh-") # a short path: a socket path has at most 107 bytes
        @master = @supervisor.spawn(["ssh", *base_args, "-M", "-N", "-o", "ControlPersist=no", host.ssh],
                                    name: "ssh #{host.name}", log_path: File.join(@dir, "ssh-#{host.name}.log"))
        wait_for_master
        self
      rescue StandardError
        close
        raise
      end

      def close
        @supervisor.stop(@master, grace_s: 1) if @master
        @master = nil
        FileUtils.rm_rf(@tmp) if @tmp
      end

      # The local argv that runs a shell command line on the host through the master.
      def ssh_argv(command_line) = ["ssh", *base_args, "-o", "ControlMaster=no", host.ssh, "--", command_line]

      # Runs a short shell command line on the host; its output, or a ServiceError naming the host.
      def capture(command_line, timeout_s: COMMAND_TIMEOUT_S)
        log_path = File.join(@tmp, "capture-#{@mutex.synchronize { @captures += 1 }}.log")
        output, status, = @supervisor.capture(ssh_argv(command_line), name: "ssh #{host.name}", log_path: log_path,
                                                                      timeout_s: timeout_s)
        File.delete(log_path)
        return output if status.success?

        raise ServiceError.new("host #{host.name}: #{command_line[0, 60].inspect} failed (#{status.inspect})",
                               log_tail: output.lines.last(10).join)
      end

      # Copies a local file or folder to path on the host (scp over the master).
      def upload(local, remote_path, timeout_s: COMMAND_TIMEOUT_S * 4)
        argv = ["scp", "-q", "-r", *base_args(port_flag: "-P"), local, "#{host.ssh}:#{remote_path}"]
        log_path = File.join(@tmp, "scp.log")
        output, status, = @supervisor.capture(argv, name: "scp #{host.name}", log_path: log_path, timeout_s: timeout_s)
        return if status.success?

        raise ServiceError.new("host #{host.name}: copying #{File.basename(local)} failed",
                               log_tail: output)
      end

      # Starts argv on the host under the Wrapper: a Supervisor child whose
      # remote process group ends when it is stopped or rackbench ends.
      def spawn(argv, name:, log_path:, env: {}, chdir: "/", start_at_ns: nil)
        command_line = Wrapper.command(argv, env: env, chdir: chdir, start_at_ns: start_at_ns)
        @supervisor.spawn(ssh_argv(command_line), name: name, log_path: log_path, keep_stdin: true)
      end

      private

      def base_args(port_flag: "-p")
        [*host.ssh_args(port_flag: port_flag), *OPTIONS.flat_map { |o| ["-o", o] }, "-o", "ControlPath=#{control_path}"]
      end

      def control_path = File.join(@tmp, "c")

      def wait_for_master
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + CONNECT_TIMEOUT_S + 5
        until File.socket?(control_path)
          unless @master.alive?
            raise ServiceError.new("host #{host.name}: ssh #{host.ssh} failed (#{@master.status.inspect})",
                                   log_tail: @master.log_tail)
          end
          if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            raise ServiceError.new("host #{host.name}: no ssh connection within #{CONNECT_TIMEOUT_S + 5}s",
                                   log_tail: @master.log_tail)
          end
          sleep 0.02
        end
      end
    end
  end
end
