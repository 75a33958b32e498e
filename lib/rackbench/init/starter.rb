# frozen_string_literal: true

require "fileutils"
require "securerandom"

module Rackbench
  module Init
    # What `rackbench init` tries on an app, and what came of it: the env
    # (Rails' production needs, then the --env given), the setup a Rails app
    # needs, then one start (Boot) on each server the app's bundle has; the
    # paths (detected, then the --path given) are requested on the first
    # server that starts and kept when they answer 2xx. SuiteText writes the
    # suite from it. Created by CLI::Init.
    #
    #   starter = Starter.new(Detection.new("~/shop"), env: {"MAX_THREADS" => "5"}, paths: ["/health"],
    #                         work_dir: "rackbench-results/init/shop", log_root: "rackbench-results")
    #   starter.probe!
    #   starter.kept       # {"/health" => 200}
    #   starter.dropped    # {"/" => "answered 500"}
    #   starter.outcomes   # [Boot::Outcome puma (started), Boot::Outcome iodine (its reason)]
    #   starter.needed     # {"THREADS" => ["iodine"]}: variables the app stopped without
    #   starter.env_parts  # [{"RAILS_ENV" => "production"}, {"SECRET_KEY_BASE" => "..."}]: suite's env:, env file
    class Starter
      SETUP_TIMEOUT_S = 300

      attr_reader :detection, :kept, :dropped, :outcomes, :setup_failure, :given_env

      def initialize(detection, env: {}, paths: [], work_dir: nil, log_root: nil)
        @detection = detection
        @given_env = env.to_h { |k, v| [k.to_s, v.to_s] }
        @given_paths = paths
        @work_dir = work_dir
        @log_root = log_root
        @kept = {}
        @dropped = {}
        @outcomes = []
      end

      def rails? = detection.framework == "rails"
      def servers = detection.servers

      # Paths to try: the detected ones, then those given with --path.
      def paths = (detection.paths + @given_paths).uniq

      # The env the app gets: Rails' production needs, then the --env given.
      def env = rails_env.merge(given_env)

      # The env as the suite keeps it: [written into env:, written into the
      # env file] (secrets: names that look secret, values with a URL
      # password; Suite::Secrets), so no secret is typed into the suite.
      def env_parts = self.class.env_parts(env)

      def self.env_parts(env)
        secrets = Suite::Secrets.new({ "env" => env })
        env.partition { |name, value| !secrets.name?(name) && secrets.url_passwords(value).empty? }.map(&:to_h)
      end

      def rails_env
        return {} unless rails?

        @rails_env ||= { "RAILS_ENV" => "production", "SECRET_KEY_BASE" => SecureRandom.hex(32),
                         "RAILS_LOG_LEVEL" => "warn", **sqlite_url }
      end

      # A SQLite production section without a database file (rails new
      # --minimal writes one) gets a DATABASE_URL in storage/.
      def sqlite_url
        path = File.join(detection.dir, "config", "database.yml")
        production = File.file?(path) && File.read(path)[/^production:\n((?:[ \t].*\n?|\n)*)/, 1]
        return {} unless production && File.read(path).include?("sqlite3") && !production.match?(/^\s*database:/)

        { "DATABASE_URL" => "sqlite3:storage/production.sqlite3" }
      end

      def setup
        return [] unless rails?

        steps = []
        steps << "bin/rails db:prepare" if File.file?(File.join(detection.dir, "config", "database.yml"))
        steps << "bin/rails assets:precompile" if detection.gems.keys.intersect?(%w[propshaft sprockets-rails])
        steps
      end

      # Rails in production redirects plain http to https (force_ssl): the
      # header says the request came through a TLS proxy.
      def headers
        production = File.join(detection.dir, "config", "environments", "production.rb")
        force_ssl = File.file?(production) && File.read(production).match?(/^\s*config\.force_ssl\s*=\s*true/)
        force_ssl ? { "X-Forwarded-Proto" => "https" } : {}
      end

      def ready_path = rails? && detection.paths.include?("/up") ? "/up" : nil

      # The server entries as a starter suite lists them ({server: puma, threads: 5}).
      def entry(server) = Servers.fetch(server).starter_entry

      def started = outcomes.select(&:started?)

      # {variable => [servers that stopped without it]}.
      def needed
        outcomes.each_with_object({}) { |o, acc| o.needed.each { |name| (acc[name] ||= []) << o.server } }
      end

      # Runs setup, then starts each server once; requests every path on the
      # first that starts. Stops everything it started.
      def probe!(timeout_s: 60)
        FileUtils.rm_rf(@work_dir)
        FileUtils.mkdir_p(@work_dir)
        run_setup
        return if setup_failure

        boot = Boot.new(detection.config_ru, env: env, dir: @work_dir, log_root: @log_root, headers: headers,
                                             ready_path: ready_path, ready_timeout_s: timeout_s)
        servers.each do |server|
          outcome = boot.try(entry(server), paths: started.empty? ? paths : [])
          outcomes << outcome
          sort_paths(outcome) if outcome.started? && started.size == 1
        end
        paths.each { |p| @dropped[p] = "not requested: no server started" } if started.empty?
      end

      private

      def sort_paths(outcome)
        outcome.answers.each do |path, status|
          if outcome.served.key?(path) then @kept[path] = status
          else @dropped[path] = status.is_a?(Integer) ? "answered #{status}" : status
          end
        end
      end

      def run_setup
        supervisor = Supervisor.new
        bundle_env = detection.bundle ? detection.bundle.env : {}
        setup.each_with_index do |command, i|
          log_path = File.join(@work_dir, "setup-#{i + 1}.log")
          _, status, = supervisor.capture(["sh", "-c", command], name: "setup", env: bundle_env.merge(env),
                                                                 chdir: detection.dir, timeout_s: SETUP_TIMEOUT_S,
                                                                 log_path: log_path)
          next if status.success?

          ran = Supervisor::Child.new(name: "setup command #{command.inspect}", status: status, log_path: log_path)
          return @setup_failure = ExitReason.new(ran, app_dir: detection.dir, log_root: @log_root).failed
        end
        nil
      rescue ServiceError => e
        @setup_failure = e.message
      ensure
        supervisor.stop_all
      end
    end
  end
end
