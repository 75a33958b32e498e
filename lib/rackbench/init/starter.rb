# frozen_string_literal: true

require "fileutils"
require "securerandom"
require "tmpdir"
require "yaml"

module Rackbench
  module Init
    # A commented starter suite for an app: what Detection found, each path
    # requested once on the app's own server (kept when it answers 2xx), and
    # the env and setup a Rails app needs in production.
    #
    #   starter = Starter.new(Detection.new("~/shop"))
    #   starter.probe!               # boots the app once; fills #kept and #dropped
    #   File.write("rackbench.yml", starter.yaml)
    class Starter
      KEPT_STATUSES = (200..299)

      attr_reader :detection, :kept, :dropped

      def initialize(detection)
        @detection = detection
        @kept = detection.paths
        @dropped = {}
      end

      def rails? = detection.framework == "rails"
      def servers = @servers ||= detection.servers

      def env
        return {} unless rails?

        @env ||= { "RAILS_ENV" => "production", "SECRET_KEY_BASE" => SecureRandom.hex(32), "RAILS_LOG_LEVEL" => "warn",
                   **sqlite_url }
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

      # Runs setup, starts the app on its first server, requests every path
      # once and keeps those that answer 2xx. Stops everything it started.
      def probe!(timeout_s: 60)
        server_name = servers.first
        return @dropped = { "*" => "not requested: no app server in the Gemfile.lock" } unless server_name

        Dir.mktmpdir("rackbench-init-") do |dir|
          supervisor = Supervisor.new
          begin
            run_setup(supervisor, dir)
            server = Servers.fetch(server_name).new("server" => server_name)
            trial = Trial.new(server, supervisor: supervisor, dir: dir, app: detection.config_ru, env: env,
                                      ready_timeout_s: timeout_s, ready_path: ready_path).start
            detection.paths.each { |path| try(trial, path) }
          ensure
            supervisor.stop_all
          end
        end
        @kept = detection.paths - @dropped.keys
      end

      def yaml
        lines = ["# Starter suite written by `rackbench init` for #{File.basename(detection.dir)} " \
                 "(#{detection.framework}). Edit freely; `rackbench run rackbench.yml` runs it.", ""]
        lines << "name: #{File.basename(detection.dir)}"
        lines << "app: config.ru              # served under the app's own Gemfile (bundle exec)"
        lines += section("env", env, "# env of every server process")
        lines += section("setup", setup, "# run once, in this folder, before the first server starts")
        lines << "ready_path: #{ready_path}           # answers once the app has booted" if ready_path
        lines += endpoint_lines
        lines += ["concurrency: [1, 8, 32]", "duration_s: 10", "warmup_s: 2", "engine: native", ""]
        lines += server_lines
        lines << "smoke: {concurrency: [4], duration_s: 1, warmup_s: 0, repeats: 1, deployments: 1}"
        lines.join("\n") << "\n"
      end

      private

      def run_setup(supervisor, dir)
        bundle_env = detection.bundle ? detection.bundle.env : {}
        setup.each_with_index do |command, i|
          output, status, = supervisor.capture(["sh", "-c", command], name: "setup", env: bundle_env.merge(env),
                                                                      chdir: detection.dir, timeout_s: 300,
                                                                      log_path: File.join(dir, "setup-#{i}.log"))
          unless status.success?
            raise ServiceError.new("setup command #{command.inspect} failed (#{status.inspect})",
                                   log_tail: output)
          end
        end
      end

      # A path is kept when its answer is a 2xx: the request's own expectation,
      # which the AnswerRule holds it to.
      def try(trial, path)
        answer = trial.answer(Request.new("path" => path, "headers" => headers, "expect_status" => KEPT_STATUSES))
        return if answer.ok?

        @dropped[path] = answer.status ? "answered #{answer.status}" : answer.problems.first
      end

      def section(key, value, comment)
        return [] if value.empty?

        [comment, { key => value }.to_yaml.delete_prefix("---\n").chomp]
      end

      def endpoint_lines
        lines = ["# GET paths without parameters#{" that answered 2xx" unless @dropped.key?("*")}. Add real requests too:",
                 "#   - {name: create, path: /items, method: POST, json: {item: {name: x}}, expect_status: 201}",
                 "#   - {path: \"/items/:id\", ids: [1, 2, 3]}",
                 "endpoints:"]
        lines += kept.map { |p| headers.empty? ? "  - #{p}" : "  - {path: #{p}, headers: #{headers.to_json}}" }
        lines += @dropped.except("*").map { |p, why| "  # - #{p}    # left out: #{why}" }
        lines + ["# mix: [{endpoint: #{kept.first || "/"}, weight: 80}, ...]   # one more cell: these served at once", ""]
      end

      def server_lines
        found = servers
        if found.empty?
          return ["servers:   # no server in the Gemfile.lock: `bundle add puma`, then list it here",
                  "  - {server: puma, threads: 5}", ""]
        end

        lines = ["# The servers in the app's Gemfile.lock (`rackbench servers` lists their knobs):", "servers:"]
        found.each { |s| lines << "  - #{starter_config(s)}" }
        lines + [""]
      end

      def starter_config(server)
        { "puma" => "{server: puma, threads: 5}", "unicorn" => "{server: unicorn, workers: 2}",
          "pitchfork" => "{server: pitchfork, workers: 2}" }.fetch(server, "{server: #{server}}")
      end
    end
  end
end
