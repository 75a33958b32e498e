# frozen_string_literal: true

require "fileutils"
require "tmpdir"

module Rackbench
  module CLI
    # rackbench verify [APP ...] [--postgres] [--server NAME] [--threads N] [--keep DIR]:
    # serves each bundled app (all of them by default, or a config.ru) on puma (or --server)
    # with the upstream and memcached services, requests every endpoint once,
    # and prints a line per endpoint. Exit status 1 if any answer is wrong.
    class Verify < Command
      def initialize(argv, out, err)
        super
        @services = %w[upstream memcached]
        @threads = 4
        @server = "puma"
        @keep = nil
      end

      def call
        apps = parse
        dir = @keep ? FileUtils.mkdir_p(@keep).first : Dir.mktmpdir("rackbench-verify-")
        supervisor = Supervisor.new
        failures = with_services(supervisor, dir) { |env| apps.sum { |app| verify(app, supervisor, dir, env) } }
        @out.puts(failures.zero? ? "verify: every endpoint answered as expected" : "verify: #{failures} wrong answer(s)")
        failures.zero? ? 0 : 1
      rescue ServiceError => e
        failed(e, dir)
      ensure
        supervisor&.stop_all
        FileUtils.rm_rf(dir) if dir && !@keep
      end

      private

      # Says why, and keeps the folder: the log the message points to stays.
      def failed(error, dir)
        @err.puts "rackbench verify: #{error.message}"
        @err.puts error.log_tail.to_s.gsub(/^/, "  | ") if error.log_tail && !error.log_tail.empty?
        @err.puts "rackbench verify: logs kept in #{dir}" if dir && !@keep
        @keep ||= dir
        1
      end

      def parse
        OptionParser.new do |o|
          o.banner = "Usage: rackbench verify [APP|path/to/config.ru ...] [options]\n" \
                     "Bundled apps: #{Apps.names.join(", ")} (default: all)"
          o.on("--postgres", "serve /db from the postgres service instead of SQLite") { @services << "postgres" }
          o.on("--server NAME", "the server to verify on (default puma; #{Rackbench::Servers.names.join(", ")})") { |n| @server = n }
          o.on("--threads N", Integer, "puma threads (default #{@threads})") { |n| @threads = n }
          o.on("--keep DIR", "keep logs and databases in DIR") { |d| @keep = d }
        end.parse!(@argv)
        @argv.empty? ? Apps.names : @argv
      end

      def with_services(supervisor, dir)
        started = []
        env = @services.each_with_object({}) do |name, acc|
          service = Services.fetch(name).new("service" => name)
          started << service
          service_dir = FileUtils.mkdir_p(File.join(dir, "service-#{name}")).first
          acc.merge!(service.start(supervisor, service_dir))
        end
        yield env
      ensure
        started.reverse_each { |s| s.stop(supervisor) }
      end

      # Prints one app's checks; returns how many answers were wrong.
      def verify(app, supervisor, root, env)
        dir = FileUtils.mkdir_p(File.join(root, File.basename(app, ".ru"))).first
        verification = Apps::Verification.new(app, supervisor: supervisor, dir: dir, env: env, server: server_config,
                                                   log_root: root)
        @out.puts verification.label
        checks = verification.run
        @out.print Reports::Grid.new(%w[answer path ms detail], checks.map { |c| row(c) }, align: %i[left left right left])
                                .text(header: false, indent: "  ")
        checks.count { |c| !c.ok? }
      end

      def server_config
        @server == "puma" ? { "server" => "puma", "threads" => @threads } : { "server" => @server }
      end

      # ok or FAIL, the path, how long it took and what came back (or what was wrong); skip and why.
      def row(check)
        return ["skip", check.path, nil, check.skipped] if check.skipped

        detail = check.ok? ? "#{check.status} #{check.content_type}, #{check.bytes} bytes" : check.problems.join("; ")
        [check.ok? ? "ok" : "FAIL", check.path, format("%.1f", check.duration_ms), detail]
      end
    end
  end
end
