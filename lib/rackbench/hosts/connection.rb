# frozen_string_literal: true

require "fileutils"
require "shellwords"
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
        Hosts.opened(self) do
          @tmp = Dir.mktmpdir("rb-ssh-") # a short path: a socket path has at most 107 bytes
          @master = @supervisor.spawn(["ssh", *base_args, "-M", "-N", "-o", "ControlPersist=no", host.ssh],
                                      name: "ssh #{host.name}", log_path: File.join(@dir, "ssh-#{host.name}.log"))
          wait_for_master
        end
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

      # Copies local files and folders into remote_dir on the host (made if
      # missing): by rsync when both ends have it, else scp. rsync compares
      # nothing (--ignore-times): its quick check by size and time kept a
      # stale server config on the host (a port rewritten with as many digits,
      # in the same second), so an instance listened where rackbench did not
      # look; the files pushed are a run's configs, small.
      def push(local_paths, remote_dir, timeout_s: COMMAND_TIMEOUT_S * 4)
        return if local_paths.empty?

        capture("mkdir -p #{Shellwords.escape(remote_dir)}")
        argv = if rsync? then [*rsync_argv, "--ignore-times", *local_paths, "#{host.ssh}:#{remote_dir}/"]
               else ["scp", "-q", "-r", "-p", *base_args(port_flag: "-P"), *local_paths, "#{host.ssh}:#{remote_dir}/"]
               end
        transfer(argv, "copying #{local_paths.map { |p| File.basename(p) }.join(", ")} to #{remote_dir}", timeout_s)
      end

      # Copies what remote_dir holds on the host into local_dir (made if
      # missing), over what is there; nothing when remote_dir does not exist.
      def pull(remote_dir, local_dir, timeout_s: COMMAND_TIMEOUT_S * 4)
        FileUtils.mkdir_p(local_dir)
        if rsync?
          return unless capture("test -d #{Shellwords.escape(remote_dir)} && echo y || true").strip == "y"

          return transfer([*rsync_argv, "#{host.ssh}:#{remote_dir}/", "#{local_dir}/"], "fetching #{remote_dir}", timeout_s)
        end
        entries = capture("ls -A #{Shellwords.escape(remote_dir)} 2>/dev/null || true").lines.map(&:chomp).reject(&:empty?)
        return if entries.empty?

        argv = ["scp", "-q", "-r", "-p", *base_args(port_flag: "-P"), *entries.map { |e| "#{host.ssh}:#{remote_dir}/#{e}" },
                "#{local_dir}/"]
        transfer(argv, "fetching #{remote_dir}", timeout_s)
      end

      # Whether files go by rsync: on this machine and the host (asked once).
      def rsync?
        return @rsync unless @rsync.nil?

        @rsync = Executable.available?("rsync") && capture("command -v rsync || true").strip != ""
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

      # rsync's ssh: the master's, with this host's options. rsync splits -e
      # on spaces and honours quotes, not a shell's backslashes (Shellwords
      # wrote "BatchMode\=yes", which ssh refused): a word with a space is quoted.
      def rsync_argv
        ssh = ["ssh", *base_args, "-o", "ControlMaster=no"].map { |word| word.match?(/\s/) ? "'#{word}'" : word }
        ["rsync", "-a", "-e", ssh.join(" ")]
      end

      def transfer(argv, what, timeout_s)
        log_path = File.join(@tmp, "transfer-#{@mutex.synchronize { @captures += 1 }}.log")
        output, status, = @supervisor.capture(argv, name: "#{argv.first} #{host.name}", log_path: log_path,
                                                    timeout_s: timeout_s)
        File.delete(log_path)
        return if status.success?

        raise ServiceError.new("host #{host.name}: #{what} failed (#{status.inspect})", log_tail: output.lines.last(10).join)
      end

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
