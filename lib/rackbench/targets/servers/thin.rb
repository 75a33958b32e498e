# frozen_string_literal: true

module Rackbench
  module Servers
    # Thin: one EventMachine reactor process; threaded: true hands requests to a pool.
    #
    #   - {server: thin}
    #   - {server: thin, bind: unix, threads: 20}
    #   - {server: thin, instances: 4, bind: unix, proxy: {proxy: nginx}}   # 001's cluster
    #
    # 001's `thin start -s4 --socket /tmp/thin.sock` is four independent thin
    # processes on thin.0.sock .. thin.3.sock; thin's cluster controller
    # daemonizes each one (setsid), out of the supervisor's reach, so rackbench
    # starts the same four processes itself as instances, each in the foreground.
    class Thin < Base
      NAME = "thin"
      GEM = "thin"
      knob :threads, :whole, min: 0, doc: "run requests on a thread pool of this size (--threaded; default off)"
      knob :max_conns, :whole, min: 0, doc: "maximum connections (--max-conns; default thin's)"
      starter 5
      # One process, one thread (EventMachine) unless told otherwise.
      facts by_design: { "workers" => 1, "threads" => 1 }

      def command(app:, bind:, **)
        argv = [*gem_bin("thin"), "start", "--rackup", app, "--environment", "production",
                "--chdir", File.dirname(app), "--tag", "rackbench"]
        argv += bind.unix? ? ["--socket", bind.socket_path] : ["--address", bind.address, "--port", bind.port.to_s]
        argv += ["--threaded", "--threadpool-size", setting("threads").to_s] if setting("threads")
        argv += ["--max-conns", setting("max_conns").to_s] if setting("max_conns")
        argv
      end

      def shape
        config["threads"] ? "x1:#{config["threads"]}" : nil
      end
    end

    register("thin", Thin)
  end
end
