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
      knob :workers, :whole, min: 1, default: 1, doc: "reactor processes (forked: --count, hybrid: --forks)"
      knob :threads, :whole, min: 1, default: 1, doc: "reactor threads (threaded: --count, hybrid: --threads)"
      knob :model, :one_of, values: MODELS, doc: "container"
      # Tuned in its hybrid model: forked reactors x threads.
      tunes({ "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8] }, fixed: { "model" => "hybrid" })
      starter 4
      facts unsaid: { "threads" => "a reactor thread runs many requests at once on fibers" }

      def self.supports_unix? = false

      def model = setting("model")

      def command(app:, bind:, **)
        argv = [*gem_bin("falcon"), "serve", "--bind", "http://#{bind.address}:#{bind.port}", "--config", app, "--#{model}"]
        case model
        when "forked" then argv + ["--count", setting("workers").to_s]
        when "threaded" then argv + ["--count", setting("threads").to_s]
        else argv + ["--forks", setting("workers").to_s, "--threads", setting("threads").to_s]
        end
      end

      def env = { "RACK_ENV" => "production", "CONSOLE_LEVEL" => "warn" }

      # Falcon's own deadline for a graceful stop is short (--graceful-stop 1).
      def stop_signal = "INT"
    end

    register("falcon", Falcon)
  end
end
