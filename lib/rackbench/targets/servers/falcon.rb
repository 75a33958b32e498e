# frozen_string_literal: true

module Rackbench
  module Servers
    # Falcon: fibers on an async reactor; forked (default), threaded or hybrid
    # containers of reactors. TCP only (its bind takes http:// URLs here).
    #
    #   - {server: falcon, workers: 2}
    #   - {server: falcon, model: hybrid, workers: 2, threads: 4}
    class Falcon < Base
      NAME = "falcon"
      GEM = "falcon"
      MODELS = %w[forked threaded hybrid].freeze
      knob :workers, "reactor processes (forked: --count, hybrid: --forks; default 1)"
      knob :threads, "reactor threads (threaded: --count, hybrid: --threads)"
      knob :model, "container: forked (default), threaded or hybrid"

      def self.supports_unix? = false

      def validate!
        super
        unless MODELS.include?(model)
          raise ConfigError,
                "server falcon: model must be one of #{MODELS.join(", ")}, got #{model.inspect}"
        end

        self
      end

      def model = config.fetch("model", "forked").to_s

      def command(app:, bind:, **)
        argv = [*gem_bin("falcon"), "serve", "--bind", "http://#{bind.address}:#{bind.port}", "--config", app, "--#{model}"]
        case model
        when "forked" then argv + ["--count", int("workers", 1).to_s]
        when "threaded" then argv + ["--count", int("threads", 1).to_s]
        else argv + ["--forks", int("workers", 1).to_s, "--threads", int("threads", 1).to_s]
        end
      end

      def env = { "RACK_ENV" => "production", "CONSOLE_LEVEL" => "warn" }

      # Falcon's own deadline for a graceful stop is short (--graceful-stop 1).
      def stop_signal = "INT"
    end

    register("falcon", Falcon)
  end
end
