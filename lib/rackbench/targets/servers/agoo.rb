# frozen_string_literal: true

module Rackbench
  module Servers
    # Agoo: a C HTTP server with its own request queue, Rack calls on a pool of
    # Ruby threads, optionally in several forked workers.
    #
    #   - {server: agoo, workers: 2, threads: 4}
    class Agoo < Base
      NAME = "agoo"
      GEM = "agoo"
      knob :workers, :whole, min: 1, default: 1, doc: "processes (-w)"
      knob :threads, :whole, min: 1, default: 1, doc: "Ruby threads for Rack calls (-t)"
      tunes({ "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8, 16] })
      starter 7

      def command(app:, bind:, **)
        address = bind.unix? ? "unix://#{bind.socket_path}" : "http://#{bind.address}:#{bind.port}"
        [*gem_bin("agoo"), "--silent", "-b", address, "-w", setting("workers").to_s, "-t", setting("threads").to_s, app]
      end

      def env = { "RACK_ENV" => "production" }
    end

    register("agoo", Agoo)
  end
end
