# frozen_string_literal: true

module Rackbench
  module Servers
    # Pitchfork: unicorn's design (forked single-threaded workers, one listen
    # queue) plus reforking: after refork_after requests a warmed worker becomes
    # the template of the next generation, sharing its memory copy-on-write.
    #
    #   - {server: pitchfork, workers: 4}
    #   - {server: pitchfork, workers: 4, refork_after: [50, 100, 1000]}
    class Pitchfork < Base
      NAME = "pitchfork"
      GEM = "pitchfork"
      knob :workers, "worker processes (worker_processes)"
      knob :refork_after, "requests after which a worker is promoted to mold, per generation (list; default off)"
      knob :backlog, "listen backlog (default 1024)"

      def validate!
        super
        refork = config["refork_after"]
        unless refork.nil? || (refork.is_a?(Array) && refork.all? { |n| n.is_a?(Integer) && n.positive? })
          raise ConfigError, "server pitchfork: refork_after must be a list of whole numbers > 0, got #{refork.inspect}"
        end

        self
      end

      def command(app:, bind:, dir:)
        config_path = File.join(dir, "pitchfork.rb")
        File.write(config_path, config_file(bind))
        [*gem_bin("pitchfork"), "-E", "production", "-c", config_path, app]
      end

      def config_file(bind)
        listen = bind.unix? ? bind.socket_path : "#{bind.address}:#{bind.port}"
        lines = ["worker_processes #{int("workers", 1)}", "listen #{listen.inspect}, backlog: #{int("backlog", 1024)}",
                 "timeout 120"]
        lines << "refork_after #{config["refork_after"].inspect}" if config["refork_after"]
        lines.join("\n") << "\n"
      end

      # QUIT is pitchfork's graceful stop, as in unicorn.
      def stop_signal = "QUIT"

      # Pitchfork's workers and molds each sit in a process group of their own,
      # out of reach of the group kill; those still alive after it (a worker
      # stuck in a loop outlives its monitor) are killed by pid.
      def stop(supervisor, child)
        tree = Sampler.new(root_pids: [child.pid]).tree_pids - [child.pid]
        super
        Supervisor.signal_pids(tree.select { |pid| ProcessTable.live?(pid) }, "KILL")
      end
    end

    register("pitchfork", Pitchfork)
  end
end
