# frozen_string_literal: true

module Rackbench
  module Apps
    # Serves one app on a real server (puma by default), requests every
    # endpoint of the catalogue once, and checks each answer's status, content
    # type and body. Created by `rackbench verify` and by the tests; the
    # services the endpoints need are started by the caller, whose env (see
    # Services::*::ENV_KEY) tells which ones are there: an endpoint whose
    # service is missing is skipped, not failed.
    #
    #   checks = Verification.new("roda", supervisor: sup, dir: dir, env: env).run { |check| puts check }
    #   checks.all?(&:ok?)
    class Verification
      DEFAULT_SERVER = { "server" => "puma", "threads" => 4 }.freeze

      # One endpoint's outcome; problems is empty when it answered right.
      Check = Struct.new(:endpoint, :path, :status, :content_type, :bytes, :duration_ms, :problems, :skipped,
                         keyword_init: true) do
        def ok? = problems.empty?
      end

      attr_reader :app_path, :deployment_commands

      # app: a bundled app's name, or a path to a config.ru that serves the same endpoints.
      # log_root: the folder a failed start's log path is shown relative to.
      def initialize(app, supervisor:, dir:, env: {}, server: DEFAULT_SERVER, timeout_s: 30, log_root: nil)
        @log_root = log_root
        @app_path = Apps.bundled?(app) ? Apps.path(app) : File.expand_path(app)
        unless File.file?(@app_path)
          raise ConfigError,
                "verify: #{app.inspect} is neither a bundled app (#{Apps.names.join(", ")}) nor a config.ru"
        end

        @supervisor = supervisor
        @dir = dir
        @env = Apps.default_env(dir).merge(env)
        @server = Servers.fetch(server["server"]).new(server).validate!
        @timeout_s = timeout_s
      end

      def label = "#{File.basename(File.dirname(app_path))} on #{@server.label}"

      # Checks every endpoint in the catalogue's order, yielding each Check as it is made.
      def run
        trial = Trial.new(@server, supervisor: @supervisor, dir: @dir, app: app_path, env: @env, ready_timeout_s: @timeout_s,
                                   rule: AnswerRule.new(catalogue: true, env: @env), log_root: @log_root).start
        @deployment_commands = trial.commands
        Apps.endpoints.map do |endpoint|
          check = check(endpoint, trial)
          yield check if block_given?
          check
        end
      ensure
        trial&.stop
      end

      private

      # The endpoint's sample requested once, its answer held to the
      # catalogue's expectation (the trial's AnswerRule).
      def check(endpoint, trial)
        missing = Array(endpoint.services).reject { |name| @env.key?(Services.fetch(name)::ENV_KEY) }
        unless missing.empty?
          return Check.new(endpoint: endpoint.name, path: endpoint.sample, problems: [],
                           skipped: "needs the #{missing.join(", ")} service")
        end

        answer = trial.answer(Request.new(endpoint.sample_request), timeout_s: @timeout_s)
        Check.new(endpoint: endpoint.name, path: endpoint.sample, status: answer.status,
                  content_type: answer.headers["content-type"], bytes: answer.body.bytesize,
                  duration_ms: (answer.duration_s * 1000).round(1), problems: answer.problems)
      end
    end
  end
end
