# frozen_string_literal: true

module Rackbench
  module Servers
    # Pitchfork: unicorn's design (forked single-threaded workers, one listen
    # queue) plus reforking: after refork_after requests a warmed worker becomes
    # the template of the next generation, sharing its memory copy-on-write.
    # refork_after's last value holds for every later generation (pitchfork's
    # ReforkCondition: limits.fetch(generation) { limits.last }), so [200]
    # reforks after every 200 requests of a worker for as long as it serves:
    # with two workers at 800 req/s, a new mold and new workers every quarter
    # second. On /hello with 2 workers, 1 s windows at c=4, load average 15-18:
    # 114-840 req/s with [200] (48 once, in a capacity test), 960-5,199 without.
    #
    #   - {server: pitchfork, workers: 4}
    #   - {server: pitchfork, workers: 4, refork_after: [50, 100, 1000]}
    #   - {server: pitchfork, workers: 4, config: config/pitchfork.rb}
    class Pitchfork < Base
      NAME = "pitchfork"
      GEM = "pitchfork"
      knob :workers, :whole, min: 1, default: 1, doc: "worker processes (worker_processes)"
      knob :refork_after, :list, items: :whole, min: 1,
                                 doc: "requests after which a worker is promoted to mold, per generation; the last " \
                                      "value holds for every later generation (default off)"
      knob :backlog, :whole, min: 0, default: 1024, doc: "listen backlog"
      knob :config, :string,
           doc: "the app's own pitchfork config file (relative to the app's folder), read first; the knobs above override it"
      tunes({ "workers" => [1, 2, 4, 8] })
      starter 3, "workers" => 2
      # Single-threaded workers that always preload (the mold); its config file reads as unicorn's.
      facts by_design: { "threads" => 1, "preload" => true }, directives: Servers.fetch("unicorn").facts[:directives]

      def command(app:, bind:, dir:)
        config_path = write_config_file(dir, "pitchfork.rb", app: app, body: config_file(bind))
        [*gem_bin("pitchfork"), "-E", "production", "-c", config_path, app]
      end

      def config_file(bind)
        listen = bind.unix? ? bind.socket_path : "#{bind.address}:#{bind.port}"
        lines = ["worker_processes #{setting("workers")}", "listen #{listen.inspect}, backlog: #{setting("backlog")}",
                 "timeout 120"]
        lines << "refork_after #{setting("refork_after").inspect}" if setting("refork_after")
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
