# frozen_string_literal: true

module Rackbench
  module Servers
    # Phusion Passenger Standalone (Debian's passenger package) with its builtin
    # engine, the one that needs no Nginx binary downloaded. A pool of forked
    # app processes; knobs are the pool size (min/max instances) and the spawn
    # method (smart = preload, direct = load the app in every process).
    #
    # Passenger's watchdog and core put themselves in their own session, out of
    # the supervisor's process-group kill, so #stop runs `passenger stop` first.
    #
    #   - {server: passenger, workers: 4}                       # min = max = 4
    #   - {server: passenger, max_pool_size: 8, min_instances: 2, spawn_method: direct}
    class Passenger < Base
      NAME = "passenger"
      GEM = nil
      EXECUTABLE = "passenger"
      SPAWN_METHODS = %w[smart direct].freeze
      knob :workers, :whole, min: 1, doc: "app processes, fixed pool (sets min_instances = max_pool_size)"
      knob :max_pool_size, :whole, min: 0, default: 6, doc: "maximum app processes (--max-pool-size; default: workers, else 6)"
      knob :min_instances, :whole, min: 0, default: 1,
                                   doc: "processes kept alive when idle (--min-instances; default: workers, else 1)"
      knob :spawn_method, :one_of, values: SPAWN_METHODS, doc: "smart preloads the app, direct does not"
      knob :max_requests, :whole, min: 0, default: 0, doc: "restart a process after this many requests (0 = never)"
      knob :concurrency_model, :string, default: "process", doc: "process only: threads need Passenger Enterprise"
      # The open-source edition has processes only.
      tunes({ "workers" => [1, 2, 4, 8] })
      # One thread a process (open source); it preloads when spawn_method is smart, its default.
      facts by_design: { "threads" => 1 }, follows: { "preload" => %w[spawn_method smart] }, gems: ["passenger"]

      class << self
        def path = Executable.find(EXECUTABLE)

        def installed? = !path.nil?

        def version
          return nil unless installed?

          @version ||= passenger_version
        end

        # Read from Passenger's own Ruby file when Debian's layout has it (no process started).
        def passenger_version
          file = "/usr/lib/ruby/vendor_ruby/phusion_passenger.rb"
          found = File.exist?(file) && File.read(file)[/VERSION_STRING\s*=\s*['"]([^'"]+)/, 1]
          found || Executable.version([path, "--version"], /Passenger\S* (\d[\d.]*)/)
        end

        def unavailable_reason
          return "passenger is not installed (`bin/setup passenger` installs Debian's passenger package)" unless installed?

          agent = Dir["/usr/lib/passenger/support-binaries/PassengerAgent"].first
          "Passenger's agent binary is missing (/usr/lib/passenger/support-binaries/PassengerAgent)" unless agent
        end
      end

      def validate!
        super
        if setting("concurrency_model") != "process"
          raise config_error("concurrency_model",
                             "concurrency_model #{config["concurrency_model"].inspect} needs Passenger Enterprise; " \
                             "the open-source edition here runs one request per process (\"process\")")
        end
        max_pool_size >= min_instances or
          raise(config_error("min_instances", "min_instances #{min_instances} > max_pool_size #{max_pool_size}"))
        self
      end

      def shape = "x#{max_pool_size}"
      def max_pool_size = pool_setting("max_pool_size")
      def min_instances = pool_setting("min_instances")
      def spawn_method = setting("spawn_method")

      def command(app:, bind:, dir:)
        listen = bind.unix? ? ["--socket", bind.socket_path] : ["--address", "127.0.0.1", "--port", bind.port.to_s]
        [self.class.path || EXECUTABLE, "start", File.dirname(app), "--rackup", app, "--engine", "builtin", *listen,
         "--environment", "production", "--max-pool-size", max_pool_size.to_s, "--min-instances", min_instances.to_s,
         "--spawn-method", spawn_method, "--max-requests", setting("max_requests").to_s,
         "--log-file", File.join(dir, "passenger.log"), "--pid-file", File.join(dir, "passenger.pid"),
         "--disable-security-update-check", "--disable-anonymous-telemetry", "--no-friendly-error-pages"]
      end

      # `passenger stop`, then the group kill; then waits for the watchdog's
      # session (watchdog, core, app processes) to leave, killing by pid what
      # stays past the deadline.
      def stop(supervisor, child)
        pid_file = child.argv[child.argv.index("--pid-file") + 1]
        watchdog = File.exist?(pid_file) ? File.read(pid_file).to_i : 0
        if watchdog.positive?
          begin
            log_path = File.join(File.dirname(pid_file), "passenger-stop.log")
            supervisor.capture([self.class.path || EXECUTABLE, "stop", "--pid-file", pid_file],
                               name: "passenger stop", log_path: log_path, timeout_s: 30)
          rescue ServiceError
            nil # the session is ended below all the same
          end
        end
        super
        end_session(watchdog) if watchdog.positive?
      end

      # The watchdog (and under it the core and the app processes) leaves the
      # tree of `passenger start`; its pid file names it.
      def extra_pids(child)
        pid_file = child.argv[child.argv.index("--pid-file") + 1]
        pid = File.exist?(pid_file) ? File.read(pid_file).to_i : 0
        pid.positive? && ProcessTable.live?(pid) ? [pid] : []
      end

      SESSION_GRACE_S = 15

      private

      # workers: N stands for both pool knobs, where they are not given.
      def pool_setting(key) = config[key].nil? && setting("workers") ? setting("workers") : setting(key)

      # Waits for the session's processes to end, then kills what is left.
      def end_session(sid)
        left = ProcessTable.wait_until_gone(SESSION_GRACE_S, interval_s: 0.05) { ProcessTable.session_members(sid) }
        Supervisor.signal_pids(left, "KILL")
      end
    end

    register("passenger", Passenger)
  end
end
