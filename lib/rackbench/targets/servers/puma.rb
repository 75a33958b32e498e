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
      knob :workers, "forked worker processes (0 = single mode)"
      knob :threads, "threads per process (min = max)"
      knob :preload, "preload the app before forking workers"
      knob :fork_worker, "fork workers from worker 0 (puma >= 5)"
      knob :config, "the app's own puma config file (relative to the app's folder); the knobs above override it"

      # fork_worker forks workers from worker 0, so it needs cluster mode.
      def validate!
        super
        if config["fork_worker"] && int("workers", 0).zero?
          raise ConfigError, "server puma: fork_worker needs workers > 0 (cluster mode); single mode has no workers to fork"
        end

        self
      end

      def command(app:, bind:, **)
        threads = int("threads", 5)
        argv = [*gem_bin("puma"), "--bind", bind_uri(bind), "--threads", "#{threads}:#{threads}",
                "--environment", "production", "--dir", File.dirname(app)]
        workers = int("workers", 0)
        argv += ["--workers", workers.to_s] if workers.positive?
        argv << "--preload" if config["preload"]
        argv << "--fork-worker" if config["fork_worker"]
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
