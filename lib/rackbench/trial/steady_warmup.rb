# frozen_string_literal: true

module Rackbench
  # Warm-up until steady: load in chunks until the per-second throughput of
  # the last POINTS seconds has no trend (Trend), or warmup_s_max has
  # passed, or a chunk left requests in the server (#left_behind), so the first windows of a cold JVM, a cold YJIT or an empty
  # cache are not measured as steady state. The Runner runs it before the
  # first window of each cell on each start, and records what it returns
  # with that window (resources["warmup"]).
  #
  # The chunks are the native engine's whatever the suite measures with: ab
  # and wrk print one figure per run, no per-second series, so a warm-up on
  # them could never see the rate level off and always ran to warmup_s_max
  # (60 s on every start of every Rails cell of 001 and 003). The chunks keep
  # the window's concurrency, threads and keep-alive; only the client differs.
  #
  #   warmup: steady        # or fixed (warmup_s only); by default steady for Rails, yjit: true and JRuby servers
  #   warmup_s_max: 60
  #
  #   SteadyWarmup.new(engine: native, supervisor: sup, pinning: pinning, max_s: 60).run(load, dir: cell_dir)
  #   # => {"mode" => "steady", "engine" => "native", "duration_s" => 12.1, "steady" => true,
  #   #     "requests_per_s" => [210.0, 480.0, ...]}
  class SteadyWarmup
    CHUNK_S = 3
    POINTS = 6
    DEFAULT_MAX_S = 60
    SERIES_ENGINE = "native"

    # Whether a cell warms up until steady: asked for, or (warmup: not given,
    # and some warm-up wanted) an app or server that JITs or caches.
    def self.wanted?(suite, server, app_path) = decided?(suite) { server.yjit? || jruby?(server) || rails?(app_path) }

    # The same from a server's config, before any server is made (RunEstimate).
    def self.planned?(suite, config)
      decided?(suite) do
        server = Servers.fetch(config["server"])
        config["yjit"] == true || (defined?(Servers::JRubyBase) && server <= Servers::JRubyBase) ||
          rails?(suite.app_path(*config["app"]))
      end
    end

    # The suite's warmup: if it says; else none without warmup_s; else the block's answer.
    def self.decided?(suite)
      return suite["warmup"] == "steady" if suite["warmup"]
      return false unless suite["warmup_s"].to_f.positive?

      yield
    end

    # The shortest a steady warm-up can be: POINTS seconds of series, in chunks of CHUNK_S.
    def self.min_s = (POINTS.fdiv(CHUNK_S).ceil * CHUNK_S).to_f

    # A JRuby server (its base class is loaded with the first of them).
    def self.jruby?(server) = defined?(Servers::JRubyBase) ? server.is_a?(Servers::JRubyBase) : false

    def self.rails?(app_path) = File.file?(File.join(File.dirname(app_path), "config", "application.rb"))

    def initialize(engine:, supervisor:, pinning:, max_s: DEFAULT_MAX_S)
      @engine = self.class.series_engine(engine)
      @supervisor = supervisor
      @pinning = pinning
      @max_s = max_s || DEFAULT_MAX_S
    end

    # The engine that warms up: the native one, which keeps a per-second
    # series; the suite's own only where the native engine is not built (then
    # it runs to max_s, and the record says it never was steady).
    def self.series_engine(engine)
      return engine if engine.name == SERIES_ENGINE

      native = Engines.fetch(SERIES_ENGINE).new
      native.unavailable_reason ? engine : native
    end

    def run(load, dir:)
      started = now
      rates = []
      chunk = 0
      left = nil
      until steady?(rates) || now - started >= @max_s || left
        chunk += 1
        result = @engine.run(chunk_load(load, [CHUNK_S, @max_s - (now - started)].min), supervisor: @supervisor, dir: dir,
                                                                                        cpus: @pinning.client_cpus,
                                                                                        log_name: "warmup-#{chunk}.out")
        rates.concat(per_second(result))
        left = left_behind(result)
      end
      { "mode" => "steady", "engine" => @engine.name, "duration_s" => (now - started).round(2), "steady" => steady?(rates),
        "requests_per_s" => rates.map { |r| r.round(1) }, "left_in_server" => left }.compact
    end

    private

    def steady?(rates) = rates.size >= POINTS && Trend.new(rates.last(POINTS)).flat?

    def chunk_load(load, duration_s)
      load.dup.tap do |chunk|
        chunk.duration_s = [duration_s, 1].max
        chunk.warmup_s = 0
        chunk.requests = nil
      end
    end

    # Requests a chunk left in the server (in flight or timed out when it
    # stopped), nil if none: requests slower than the engine's grace. Another
    # chunk would only queue its own behind them (each 3 s chunk of 50
    # clients left 50 two-second sleeps in a 2-worker Unicorn, which then took
    # longer to drain than drain_timeout_s), so the warm-up ends there.
    def left_behind(result)
      all = WindowRequests.new(result.window_requests)
      left = all.in_flight + all.timeout
      left.positive? ? left : nil
    end

    # Requests per second of each full second of the result's series.
    def per_second(result)
      points = result.series
      points.each_with_index.filter_map do |point, i|
        interval_s = i.zero? ? point["t_s"].to_f : point["t_s"].to_f - points[i - 1]["t_s"].to_f
        point["requests"] / interval_s if interval_s >= 0.5
      end
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
