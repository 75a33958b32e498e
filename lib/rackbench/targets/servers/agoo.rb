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
      knob :workers, "processes (-w; default 1)"
      knob :threads, "Ruby threads for Rack calls (-t; default 1)"

      def command(app:, bind:, **)
        address = bind.unix? ? "unix://#{bind.socket_path}" : "http://#{bind.address}:#{bind.port}"
        [*gem_bin("agoo"), "--silent", "-b", address, "-w", int("workers", 1).to_s, "-t", int("threads", 1).to_s, app]
      end

      def env = { "RACK_ENV" => "production" }
    end

    register("agoo", Agoo)
  end
end
