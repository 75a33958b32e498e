# frozen_string_literal: true

module Rackbench
  module Servers
    # Puma: single mode (workers: 0) or cluster mode (workers: N), threads per process.
    #
    #   - {server: puma, threads: 16}
    #   - {server: puma, workers: 4, threads: 5, preload: true}
    #   - {server: puma, workers: 4, threads: 5, fork_worker: true}
    class Puma < Base
      NAME = "puma"
      GEM = "puma"
      knob :workers, :whole, min: 0, default: 0, doc: "forked worker processes (0 = single mode)"
      knob :threads, :whole, min: 1, default: 5, doc: "threads per process (min = max)"
      knob :preload, :boolean, default: false, doc: "preload the app before forking workers"
      knob :fork_worker, :boolean, default: false, doc: "fork workers from worker 0 (puma >= 5)"
      knob :config, :string, doc: "the app's own puma config file (relative to the app's folder); the knobs above override it"
      tunes({ "workers" => [0, 1, 2, 4], "threads" => [1, 2, 4, 8, 16] })
      starter 1, "threads" => 5
      # What doctor reads of an app's own config/puma.rb (Doctor::ServerFile; value: its Doctor::RubyValue).
      facts unsaid: { "preload" => "the knob's false only means no --preload: puma >= 6 preloads workers by default " \
                                   "(the preload check reads the version)" },
            preloads_from: "6.0", preload_fix: "preload: true (preload_app!)", config_file: "config/puma.rb",
            directives: {
              "threads" => [/\Athreads\s*\(?\s*(.+?)\s*\)?\z/, ->(args, value) { value.of("Integer(#{args.split(",").last})") }],
              "workers" => [/\Aworkers\s*\(?\s*(.+?)\s*\)?\z/, ->(args, value) { value.of("Integer(#{args})") }],
              "preload" => [/\Apreload_app!\s*\(?\s*(.*?)\s*\)?\z/, ->(args, value) { args.empty? || value.of(args) }],
              "fork_worker" => [/\Afork_worker\b\s*\(?\s*(.*?)\s*\)?\z/, ->(*) { true }],
              "environment" => [/\Aenvironment\s*\(?\s*(.+?)\s*\)?\z/, ->(args, value) { value.of(args) }],
              "log_requests" => [/\A(log_requests|quiet)\b\s*\(?\s*(.*?)\s*\)?\z/, lambda { |args, value|
                name, arg = args
                on = arg.empty? || value.of(arg)
                value.class.known?(on) && name == "quiet" ? !on : on
              }]
            }

      # preload and fork_worker need workers to fork (cluster mode).
      def self.tunable?(config) = !(config["workers"].to_i.zero? && (config["preload"] || config["fork_worker"]))

      # fork_worker forks workers from worker 0, so it needs cluster mode.
      def validate!
        super
        if setting("fork_worker") && setting("workers").zero?
          raise config_error("fork_worker", "fork_worker needs workers > 0 (cluster mode); single mode has no workers to fork")
        end

        self
      end

      def command(app:, bind:, **)
        threads = setting("threads")
        argv = [*gem_bin("puma"), "--bind", bind_uri(bind), "--threads", "#{threads}:#{threads}",
                "--environment", "production", "--dir", File.dirname(app)]
        workers = setting("workers")
        argv += ["--workers", workers.to_s] if workers.positive?
        argv << "--preload" if setting("preload")
        argv << "--fork-worker" if setting("fork_worker")
        argv += ["--config", File.expand_path(config["config"], File.dirname(app))] if config["config"]
        argv << app
      end

      private

      def bind_uri(bind)
        bind.unix? ? "unix://#{bind.socket_path}" : "tcp://#{bind.address}:#{bind.port}"
      end
    end

    register("puma", Puma)
  end
end
