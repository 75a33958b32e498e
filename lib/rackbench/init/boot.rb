# frozen_string_literal: true

require "fileutils"

module Rackbench
  module Init
    # One start of an app on one server, as `rackbench init` makes it: the
    # server gets ready or says why not (ExitReason: the app's own error, the
    # log's path relative to the results folder), and once ready each path is
    # requested once. Everything it started is stopped before #try returns.
    # Created by Starter, once per server the app's bundle has.
    #
    #   boot = Boot.new(detection.config_ru, env: {"MAX_THREADS" => "5"}, dir: "rackbench-results/init/shop",
    #                   log_root: "rackbench-results")
    #   outcome = boot.try({"server" => "puma", "threads" => 5}, paths: ["/", "/health"])
    #   outcome.started?   # => true
    #   outcome.answers    # => {"/" => 500, "/health" => 200}
    #   boot.try({"server" => "iodine"}).needed   # => ["THREADS"], from the KeyError the app stopped with
    class Boot
      REQUEST_TIMEOUT_S = 10
      KEPT_STATUSES = (200..299) # the requests' own expectation, which the AnswerRule holds them to

      # answers: {path => status, or why there was none}; served: those the
      # AnswerRule found right (a 2xx), with their status.
      Outcome = Struct.new(:entry, :reason, :answers, :served, keyword_init: true) do
        def server = entry["server"]
        def started? = reason.nil?

        # Variables the app stopped without: the KeyError of ENV.fetch names them.
        def needed = reason.to_s.scan(/key not found: "([^"]+)"/).flatten.uniq
      end

      # headers: sent with every request (Rails' force_ssl wants X-Forwarded-Proto).
      def initialize(config_ru, env:, dir:, log_root:, headers: {}, ready_path: nil, ready_timeout_s: 60)
        @config_ru = config_ru
        @env = env
        @dir = dir
        @log_root = log_root
        @headers = headers
        @ready_path = ready_path
        @ready_timeout_s = ready_timeout_s
      end

      def try(entry, paths: [])
        dir = File.join(@dir, entry["server"]).tap { |d| FileUtils.mkdir_p(d) }
        supervisor = Supervisor.new
        begin
          trial = start(Servers.fetch(entry["server"]).new(entry).validate!, supervisor, dir)
          outcome(entry, paths.to_h { |path| [path, trial.answer(request(path), timeout_s: REQUEST_TIMEOUT_S)] })
        rescue ServiceError, ConfigError => e
          Outcome.new(entry: entry, reason: e.message, answers: {}, served: {})
        ensure
          trial&.stop
          supervisor.stop_all
        end
      end

      private

      def start(server, supervisor, dir)
        Trial.new(server, supervisor: supervisor, dir: dir, app: @config_ru, env: @env, ready_path: @ready_path,
                          ready_timeout_s: @ready_timeout_s, log_root: @log_root).start
      end

      def request(path) = Request.new("path" => path, "headers" => @headers, "expect_status" => KEPT_STATUSES)

      # answers: {path => Trial::Answer}.
      def outcome(entry, answers)
        Outcome.new(entry: entry, answers: answers.transform_values { |a| a.status || a.problems.first },
                    served: answers.select { |_path, a| a.ok? }.transform_values(&:status))
      end
    end
  end
end
