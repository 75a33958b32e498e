# frozen_string_literal: true

module Rackbench
  module Engines
    # What to drive: one target at one concurrency for a duration (or a request count).
    #   warmup_s: load applied before measuring, never counted
    #   rate:     requests per second over all connections (open loop); nil = closed loop
    #   arrivals: open loop: "uniform" (evenly spaced) or "poisson" (random, seeded by seed); nil: the
    #             engine's own (uniform)
    #   slow_clients: SlowClients beside the concurrency's full-speed connections (native only), or nil
    #   rule:     the AnswerRule every answer is held to under load (native only; nil: the default rule)
    #   start_at: the Unix time (s) the load begins at, warm-up first (engines that #supports_start_at?;
    #             a duet's StartLine sets it); nil: at once
    Load = Struct.new(:target, :concurrency, :threads, :duration_s, :warmup_s, :requests,
                      :timeout_s, :rate, :keepalive, :traffic, :arrivals, :seed, :request_start,
                      :slow_clients, :rule, :start_at,
                      keyword_init: true) do
      def initialize(**)
        super
        self.threads ||= 1
        self.seed ||= 1
        self.warmup_s ||= 0
        self.timeout_s ||= 10
        self.keepalive = true if keepalive.nil?
      end

      # How long the engine may run before the supervisor gives up on it:
      # with a request count (ab -n), every request taking the whole timeout
      # one connection-round after another, whatever duration_s says (the
      # Runner fills it from the suite's default); else its duration.
      def deadline_s
        run_s = requests ? requests.fdiv(concurrency).ceil * timeout_s : duration_s || 60
        run_s + warmup_s + timeout_s + 30
      end
    end

    # Connections that send each request at send_bytes_per_s and read each
    # response at read_bytes_per_s (nil: full speed), closed loop, beside a
    # load's full-speed ones; the native engine measures both groups apart
    # (Result#slow_clients). From a suite's slow_clients keys:
    #
    #   slow_clients: 20
    #   slow_send_bytes_per_s: 500
    #   slow_read_bytes_per_s: 4000
    SlowClients = Struct.new(:connections, :send_bytes_per_s, :read_bytes_per_s, keyword_init: true) do
      # The suite's slow clients, or nil when it asks for none.
      def self.from_suite(suite)
        return nil unless suite["slow_clients"].to_i.positive?

        new(connections: suite["slow_clients"], send_bytes_per_s: suite["slow_send_bytes_per_s"],
            read_bytes_per_s: suite["slow_read_bytes_per_s"])
      end
    end

    # The contract of a load engine. The Runner calls, in this order:
    #
    #   engine = Engines.fetch("wrk").new
    #   engine.available? / engine.version / engine.unavailable_reason
    #   engine.validate!(load)          # ConfigError for what it cannot do (e.g. unix targets)
    #   argv = engine.command(load, dir) # exact argv, recorded verbatim
    #   (the Runner runs argv through the Supervisor, pinned to the client CPUs)
    #   result = engine.parse(output, load, argv)   # => Result
    #
    # warmup_in_run? says whether the engine cuts load.warmup_s out of one
    # continuous run itself; if not, the Runner warms up with a separate run of
    # the same engine and waits until the server is idle before measuring.
    class Base
      def name = self.class::NAME
      def executable = self.class::EXECUTABLE

      def available?
        !path.nil?
      end

      def path = Executable.find(executable)

      def unavailable_reason
        "#{executable} is not on PATH (#{Extras.command(name)} installs it)" unless available?
      end

      def version = nil
      def warmup_in_run? = false
      def supports_unix? = false
      def supports_slow_clients? = false
      def supports_start_at? = false

      # Why the engine cannot send this Traffic, or nil. The native engine sends
      # everything (and checks every answer); wrk and ab say what they lack.
      # Neither checks answers under load: their checks stay with the verify step.
      def unsupported(traffic)
        return nil if traffic.nil? || traffic.plain?
        return "a mix needs engine: native" if traffic.mix?

        "engine #{name} sends plain GETs only; methods, headers, bodies and ids need engine: native"
      end

      def validate!(load)
        if (why = unsupported(load.traffic))
          raise ConfigError, "engine #{name}: #{why}"
        end
        raise ConfigError, "engine #{name}: slow_clients need engine: native" if load.slow_clients && !supports_slow_clients?
        if load.target.unix? && !supports_unix?
          raise ConfigError,
                "engine #{name} cannot target a Unix socket; use engine: native"
        end

        self
      end

      # Runs the engine to completion; returns [Result, argv].
      def run(load, supervisor:, dir:, cpus: nil, log_name: "#{name}.out")
        validate!(load)
        argv = command(load, dir)
        output, status, argv_run = supervisor.capture(argv, name: name, log_path: File.join(dir, log_name),
                                                            timeout_s: load.deadline_s, cpus: cpus)
        raise ServiceError.new("#{name} failed (#{status.inspect})", log_tail: output.lines.last(10).join) unless status.success?

        parse(output, load, argv_run)
      end
    end
  end
end
