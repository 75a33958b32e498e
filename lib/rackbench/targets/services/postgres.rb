# frozen_string_literal: true

require "etc"
require "fileutils"
require "tmpdir"
require_relative "base"

module Rackbench
  module Services
    # PostgreSQL from Debian's postgresql package, for /db: a fresh cluster
    # (initdb) in a temporary folder, served on 127.0.0.1 or a Unix socket, and
    # removed when the service stops. PostgreSQL refuses to run as root, so as
    # root both initdb and postgres run as the postgres user (setpriv), in a
    # folder that user owns. The apps find it in RACKBENCH_DATABASE_URL.
    #
    #   services:
    #     - {service: postgres}
    #     - {service: postgres, bind: unix, settings: {shared_buffers: 128MB, fsync: "off"}}
    class Postgres < Base
      NAME = "postgres"
      ENV_KEY = "RACKBENCH_DATABASE_URL"
      OS_USER = "postgres"
      SEARCH_DIRS = Dir["/usr/lib/postgresql/*/bin"].sort_by { |d| d[%r{/(\d+)/bin}, 1].to_i }.reverse
      knob :max_connections, :whole, min: 1, default: 200, doc: "connections the server accepts (each app thread holds one)"
      knob :settings, :mapping, default: {}, doc: "more server settings, passed as -c key=value"

      # The folder of initdb and postgres: PATH first, then Debian's versioned folders.
      def self.bindir = Executable.folder_with(%w[initdb postgres], also_in: SEARCH_DIRS)

      def self.unavailable_reason
        return "initdb/postgres not found (Debian package postgresql; `bin/setup postgres` installs it)" unless bindir
        return "running as root needs setpriv (util-linux) and a #{OS_USER} user" if Process.uid.zero? && !root_ready?

        nil
      end

      def self.root_ready?
        Executable.available?("setpriv") && !Etc.getpwnam(OS_USER).nil?
      rescue ArgumentError
        false
      end

      # Stops with SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for clients).
      def stop_signal = "INT"

      def start(supervisor, dir)
        validate!
        why = self.class.unavailable_reason
        raise ServiceError, "postgres cannot run here: #{why}" if why

        @home = make_home
        make_cluster(supervisor, dir)
        @port = free_port
        child = launch(supervisor, as_owner([tool("postgres"), "-D", data_dir, *server_args]), dir, chdir: @home)
        wait_ready(child) { File.read(child.log_path).include?("ready to accept connections") && connectable? }
        { ENV_KEY => url }
      rescue StandardError
        stop(supervisor)
        raise
      end

      def stop(supervisor)
        super
        FileUtils.rm_rf(@home) if @home
        @home = nil
      end

      # initdb's (this start's, or the one that made the copied template), the copy's, postgres'.
      def commands = [@initdb_command, @copy_command, *super].compact

      def url
        return "postgresql://#{OS_USER}@/postgres?host=#{@home}&port=#{@port}" if unix?

        "postgresql://#{OS_USER}@127.0.0.1:#{@port}/postgres"
      end

      private

      def tool(exe) = File.join(self.class.bindir, exe)
      def data_dir = File.join(@home, "data")
      def as_root? = Process.uid.zero?

      # A short path (Unix socket paths are limited to 107 bytes) the server's user owns.
      def make_home
        home = Dir.mktmpdir("rackbench-pg-")
        if as_root?
          user = Etc.getpwnam(OS_USER)
          File.chown(user.uid, user.gid, home)
        end
        home
      end

      def as_owner(argv)
        as_root? ? ["setpriv", "--reuid=#{OS_USER}", "--regid=#{OS_USER}", "--init-groups", "--", *argv] : argv
      end

      # A fresh cluster in data_dir: a copy of the one initdb made for an
      # earlier start with the same initdb (Template), else initdb's own, kept
      # as the template for the next.
      def make_cluster(supervisor, dir)
        @copy_command = nil
        @initdb_command = as_owner([tool("initdb"), "-D", data_dir, "-U", OS_USER, "--auth=trust", "--encoding=UTF8",
                                    "--locale=C", "--no-sync"])
        template = Template.new(@initdb_command)
        return if copied?(supervisor, template.copy_command(data_dir), dir)

        _, status = supervisor.capture(@initdb_command, name: "postgres initdb", log_path: File.join(dir, "initdb.log"),
                                                        timeout_s: 120, chdir: @home)
        unless status.success?
          raise ServiceError.new("postgres initdb failed (#{status.inspect})", log_tail: tail(File.join(dir, "initdb.log")))
        end

        template.keep(supervisor, data_dir, dir)
      end

      def copied?(supervisor, argv, dir)
        return false unless argv

        _, status = supervisor.capture(argv, name: "postgres copy", log_path: File.join(dir, "copy.log"), timeout_s: 120)
        @copy_command = argv if status.success?
        FileUtils.rm_rf(data_dir) unless status.success?
        status.success?
      end

      def server_args
        listen = unix? ? "" : "127.0.0.1"
        settings = { "max_connections" => setting(:max_connections), "listen_addresses" => listen,
                     "unix_socket_directories" => @home }.merge(setting(:settings))
        ["-p", @port.to_s, *settings.flat_map { |k, v| ["-c", "#{k}=#{v}"] }]
      end

      def connectable?
        sock = unix? ? UNIXSocket.new(File.join(@home, ".s.PGSQL.#{@port}")) : TCPSocket.new("127.0.0.1", @port)
        sock.close
        true
      end

      def tail(path) = File.exist?(path) ? File.readlines(path).last(20).join : ""
    end

    register("postgres", Postgres)
    require_relative "postgres/template"
  end
end
