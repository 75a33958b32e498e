# frozen_string_literal: true

require "json"
require "time"
require "yaml"
require_relative "progress"

module Rackbench
  module CLI
    # rackbench calibrate [SUITE] [--server puma --set threads=4] [--endpoint /hello] [--concurrency 8]
    #                     [--starts 6] [--windows 3] [--duration 2] [--results DIR] [--format table|json]
    #
    # How far this machine lets rackbench's verdicts be trusted: an A/A run
    # (the same config twice, under two labels, started side by side and
    # interleaved over several starts x windows), stored as a run like any
    # other, then read by Calibration: the spread at each level, the drift,
    # the verdict on identical configs, the coverage and false-verdict rate of
    # rackbench's own procedure on data with this spread, and the windows and
    # starts that reach a precision in the least time. With SUITE, its first
    # server config, endpoint and concurrency (and its app) are calibrated,
    # in windows of its duration_s after its warmup_s (a spread is the
    # spread of a window that long) unless --duration or --warmup say.
    class Calibrate < Command
      DURATION_S = 2
      WARMUP_S = 1

      def initialize(argv, out, err)
        super
        @results = Store::Location.default
        @config = { "server" => "puma" }
        @knobs = {}
        @endpoint = nil
        @concurrency = nil
        @starts = 6
        @windows = 3
        @duration_s = nil
        @warmup_s = nil
        @precision = 0.05
        @trials = 400
        @format = "table"
      end

      def call
        parser.parse!(@argv)
        suite = Suite.new(aa_suite(@argv.first && Suite.load(@argv.first)).to_yaml, path: "(calibrate)")
        ResultsFolder.check!(Store::Location.new(@results).dir)
        store = Store.new(@results)
        run_id = measure(suite, store)
        return run_id if run_id.is_a?(Integer) && run_id > 127

        report(store, run_id)
      ensure
        store&.close
      end

      private

      def measure(suite, store)
        supervisor = Supervisor.new
        supervisor.trap_signals
        Runner.new(suite, store: store, supervisor: supervisor, listener: progress).run
      rescue SignalException => e
        supervisor&.stop_all
        @err.puts "rackbench: calibrate interrupted by SIG#{Signal.signame(e.signo)}"
        128 + e.signo
      ensure
        supervisor&.stop_all
      end

      def report(store, run_id)
        run = store.run(run_id)
        a, b = store.measurements(run_id)
        unless a&.ok? && b&.ok?
          @err.puts "rackbench: calibrate: a cell failed: #{[a, b].compact.reject(&:ok?).map(&:reason).join("; ")}"
          return 3
        end
        calibration = Calibration.new(a, b, **costs(run, [a, b]), settings: {}, trials: @trials)
        if @format == "json"
          @out.puts JSON.pretty_generate(finite(calibration.to_h(precision: @precision).merge("run" => run_id)))
        else
          @out.puts "rackbench calibrate (run #{run_id}; `rackbench report #{run_id}` shows its table)"
          calibration.lines(precision: @precision).each { |line| @out.puts "  #{line}" }
        end
        0
      end

      # What a start and a window cost here, from the run's own clock: a
      # window is its load plus its drain; a start is the rest, per start.
      def costs(run, cells)
        repeats = cells.flat_map(&:repeats)
        window_s = repeats.sum { |r| r.result.duration_s.to_f + r.drain_s.to_f + Runner::SHORT_WARMUP_S } / repeats.size
        wall_s = Time.parse(run["finished_at"]) - Time.parse(run["started_at"])
        starts = repeats.map(&:deployment).uniq.size
        { start_cost_s: [(wall_s - (window_s * repeats.size)) / starts, 0.0].max, window_cost_s: window_s }
      end

      def aa_suite(base)
        config = (base ? base["servers"].first : @config.merge(@knobs)).except("label")
        endpoint = @endpoint || base&.endpoints&.first || "/hello"
        label = Servers.fetch(config["server"]).new(config).label
        { "name" => "calibrate", "description" => "A/A: #{label} twice, side by side",
          "app" => base ? base["app"] : "rack", "endpoints" => [endpoint],
          "concurrency" => [@concurrency || base&.[]("concurrency")&.first || 8],
          **window_settings(base), "engine" => "native",
          "repeats" => @starts * @windows, "deployments" => @starts, "order" => "interleaved",
          "servers" => [config.merge("label" => "A: #{label}"), config.merge("label" => "B: #{label}")] }
          .merge(base ? base.data.slice("env", "setup", "services", "ready_path") : {})
      end

      # The window calibrated: --duration and --warmup, else the suite's, else calibrate's own.
      def window_settings(base)
        { "duration_s" => @duration_s || base&.[]("duration_s") || DURATION_S,
          "warmup_s" => @warmup_s || base&.[]("warmup_s") || WARMUP_S }
      end

      # JSON has no Infinity or NaN: a figure two starts cannot bound (an
      # infinite number of starts) is null.
      def finite(value)
        case value
        when Hash then value.transform_values { |v| finite(v) }
        when Array then value.map { |v| finite(v) }
        when Float then value.finite? ? value : nil
        else value
        end
      end

      # The run's progress; on stderr when stdout carries a document (json, markdown).
      def progress = Progress.new(@format == "table" ? @out : @err)

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench calibrate [SUITE] [options]\n" \
                     "Measures this machine's noise by A/A (one config twice, side by side) and says what it means " \
                     "for rackbench's verdicts."
          o.on("--server NAME", "server to calibrate (default puma)") { |s| @config = { "server" => s } }
          o.on("--set KEY=VALUE", "a knob of the server (threads=4, workers=2); repeatable") do |kv|
            key, value = kv.split("=", 2)
            raise ConfigError, "--set takes KEY=VALUE, got #{kv.inspect}" unless value

            @knobs[key] = YAML.safe_load(value)
          end
          o.on("--endpoint PATH", "endpoint of the bundled app (default /hello)") { |e| @endpoint = e }
          o.on("--concurrency N", Integer, "connections (default 8)") { |c| @concurrency = c }
          o.on("--starts N", Integer, "server starts (default 6)") { |n| @starts = positive(n, "--starts", 2) }
          o.on("--windows N", Integer, "windows per start (default 3)") { |n| @windows = positive(n, "--windows", 1) }
          o.on("--duration S", Float, "seconds per window (default: the suite's duration_s, else #{DURATION_S})") do |s|
            @duration_s = s
          end
          o.on("--warmup S", Float, "warm-up seconds (default: the suite's warmup_s, else #{WARMUP_S})") { |s| @warmup_s = s }
          o.on("--precision SHARE", Float, "target of the recommendation (default 0.05)") { |p| @precision = p }
          o.on("--trials N", Integer, "simulated A/A runs of the procedure (default 400)") do |n|
            @trials = positive(n, "--trials", 10)
          end
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          o.on("--format FORMAT", %w[table json], "table (default) or json") { |f| @format = f }
        end
      end

      def positive(value, option, minimum)
        raise ConfigError, "#{option} must be at least #{minimum}, got #{value}" if value < minimum

        value
      end
    end
  end
end
