# frozen_string_literal: true

module Rackbench
  module Servers
    # Iodine: a C event loop (facil.io) that hands Rack calls to a thread pool,
    # in one process or several forked workers.
    #
    #   - {server: iodine, workers: 2, threads: 4}
    #   - {server: iodine, bind: unix}
    class Iodine < Base
      NAME = "iodine"
      GEM = "iodine"
      knob :workers, :whole, min: 1, default: 1, doc: "processes (-w)"
      knob :threads, :whole, min: 1, default: 1, doc: "threads per process (-t)"
      tunes({ "workers" => [1, 2, 4], "threads" => [1, 2, 4, 8, 16] })
      starter 6

      def command(app:, bind:, **)
        address = bind.unix? ? ["-p", "0", "-b", bind.socket_path] : ["-p", bind.port.to_s, "-b", bind.address]
        [*gem_bin("iodine"), *address, "-w", setting("workers").to_s, "-t", setting("threads").to_s, app]
      end

      def env = { "RACK_ENV" => "production" }
      def stop_signal = "INT"
    end

    register("iodine", Iodine)
  end
end
