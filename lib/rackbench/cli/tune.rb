# frozen_string_literal: true

require "json"

module Rackbench
  module CLI
    # rackbench tune --endpoint PATH --slo 'p99<=100ms' [--server puma] [--app rack] [--memory 2GB]
    #                [--budget 240|4m] [--grid] [--searches 3] [--probe-s 2] [--results DIR|URL]
    # Prints the recommended config with its sustainable rate (and where its knee lies), how
    # sure the ranking is (against the runner-up), and every config tried; every probe is
    # stored as a run.
    class Tune < Command
      def initialize(argv, out, err)
        super
        @results = Store::Location.default
        @app = "rack"
        @server = "puma"
        @budget_s = 240
        @searches = Rackbench::Tune::Tuner::SEARCHES
        @probe_s = Rackbench::Tune::Tuner::PROBE_S
        @grid = false
        @values = {}
        @vary = []
      end

      def call
        parser.parse!(@argv)
        from_suite(@argv.shift) if @argv.first
        check_workload!
        space = Rackbench::Tune::Space.new(@server, values: @values, vary: @vary)
        store = Store.new(@results)
        supervisor = Supervisor.new
        supervisor.trap_signals
        @out.puts headline
        tuner = Rackbench::Tune::Tuner.new(app: @app, endpoint: @endpoint, mix: @mix, workload: @workload, space: space,
                                           slo: @slo, store: store, supervisor: supervisor, budget_s: @budget_s, grid: @grid,
                                           memory_bytes: @memory_bytes, searches: @searches, probe_s: @probe_s,
                                           out: @out).run
        print_answer(tuner)
      rescue SignalException => e
        supervisor&.stop_all
        128 + e.signo
      ensure
        supervisor&.stop_all
      end

      private

      # One suite file at most, one of --endpoint, --mix or a suite's workload, and an SLO.
      def check_workload!
        raise ConfigError, "tune takes one suite file, got also #{@argv.first.inspect}" unless @argv.empty?
        raise ConfigError, "tune takes --endpoint or --mix, not both" if @endpoint && @mix
        unless @endpoint || @mix || @workload
          raise ConfigError, "tune needs --endpoint PATH (e.g. --endpoint /sleep/50), --mix, or a suite file"
        end
        raise ConfigError, "tune needs --slo (e.g. --slo 'p99<=100ms')" unless @slo
      end

      def headline
        memory = ", memory <= #{(@memory_bytes / 1_048_576.0).round} MB" if @memory_bytes
        "rackbench tune: #{@server} on #{@app} #{@endpoint || (@mix && mix_text) || @workload_text}, #{@slo}" \
          "#{memory}, #{@grid ? "full grid" : "budget #{@budget_s.round} s"}"
      end

      # The answer, then where every probe is stored; the exit status.
      def print_answer(tuner)
        answer = tuner.answer
        @out.puts "\n#{answer.table}\n#{answer.sentence}"
        outcomes = tuner.outcomes
        @out.puts "(#{outcomes.size} configs tried in #{tuner.elapsed_s.round} s: " \
                  "#{outcomes.count { |o| o.searches.to_i.positive? }} searched, #{outcomes.count(&:screened?)} screened out; " \
                  "every probe is run #{tuner.run_id}: rackbench report #{tuner.run_id})"
        answer.problem ? 3 : 0
      end

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench tune --endpoint PATH --slo 'p99<=100ms' [options]\n       " \
                     "rackbench tune SUITE.yml --slo 'p99<=100ms' [options]   (its app, endpoint or mix, server)\n" \
                     "Finds the config of a server that sustains the highest open-loop rate under the SLO.\n" \
                     "Exit 0 with a recommendation, 3 when no config qualifies, 2 on bad input."
          workload_options(o)
          search_options(o)
          space_options(o)
          o.on("--results DIR|URL", "results folder or postgres:// URL") { |r| @results = r }
        end
      end

      # What is served and what it must meet: the endpoint or mix, the app, the SLO.
      def workload_options(opts)
        opts.on("--endpoint PATH", "the endpoint to tune for (e.g. /sleep/50)") { |p| @endpoint = p }
        opts.on("--mix PATH=WEIGHT,...", Array,
                "tune for a weighted mix served at once, e.g. /sleep/50=80,/fibonacci/25=20") do |l|
          @mix = l.map { |term| mix_member(term) }
        end
        opts.on("--slo SLO", "latency and error bounds, e.g. 'p99<=100ms' or 'p999<=1s,errors<=1%'") do |s|
          @slo = Rackbench::Slo.parse(s)
        end
        opts.on("--app APP", "a bundled app (#{Apps.names.join(", ")}) or a config.ru (default rack)") do |a|
          @app = a
          @app_given = true
        end
      end

      # How the search spends its time and what its answer must fit.
      def search_options(opts)
        opts.on("--memory SIZE", "PSS budget of the whole server tree at the knee, e.g. 512MB, 2GB") do |m|
          @memory_bytes = bytes(m)
        end
        opts.on("--budget TIME", "wall time to spend, in seconds or 4m (default 240)") { |b| @budget_s = seconds(b) }
        opts.on("--grid", "try every config, each searched --searches times, instead of a budgeted search") { @grid = true }
        opts.on("--searches K", "the most independent knee searches a config gets, each on fresh deployments " \
                                "(default 3, at least 2; a budgeted search stops earlier once the ranking is settled)") do |k|
          @searches = searches(k)
        end
        opts.on("--probe-s SECONDS", "the shortest probe, #{probe_bounds_text} (default #{Rackbench::Tune::Tuner::PROBE_S}; " \
                                     "a rate too slow for the SLO's percentile in it gets a longer one)") do |s|
          @probe_s = probe_seconds(s)
          @probe_s_given = true
        end
      end

      # The server and the configs of it to try (Tune::Space).
      def space_options(opts)
        opts.on("--server NAME", Rackbench::Tune::Space.servers, "server (default puma)") do |s|
          @server = s
          @server_given = true
        end
        opts.on("--workers LIST", Array, "worker counts to try, e.g. 1,2,4 (default: the server's)") do |l|
          @values["workers"] = whole_numbers("--workers", l)
        end
        opts.on("--threads LIST", Array, "thread counts to try, e.g. 4,8,16 (default: the server's)") do |l|
          @values["threads"] = whole_numbers("--threads", l)
        end
        opts.on("--vary LIST", Array, "also try each of these on and off: #{Rackbench::Tune::Space.switches.join(", ")}") do |l|
          @vary = l
        end
      end

      # rackbench tune SUITE.yml: the suite's app, its endpoint (or its mix,
      # when it has one) and its first server, unless the options say otherwise.
      def from_suite(path)
        suite = Suite.load(path)
        @app = suite.app_path unless @app_given
        @server = suite.server_configs.first["server"] unless @server_given
        @probe_s = suite["probe_s"] unless @probe_s_given
        endpoints = suite.endpoints
        return if @endpoint || @mix

        if suite["mix"]
          @workload = { "endpoints" => suite["endpoints"], "mix" => suite["mix"] }
          @workload_text = "the suite's mix"
        elsif endpoints.size == 1
          @workload = { "endpoints" => suite["endpoints"] }
          @workload_text = endpoints.first["path"]
        else
          raise ConfigError, "#{path}: tune takes one endpoint or a mix; this suite has #{endpoints.size} " \
                             "(#{endpoints.map { |e| e["name"] }.join(", ")}): choose one with --endpoint"
        end
      end

      def mix_text = "mix #{@mix.map { |path, weight| "#{path}=#{weight}" }.join(",")}"

      def mix_member(term)
        m = term.match(%r{\A(/\S*)=(\d+)\z}) or raise ConfigError,
                                                      "--mix: cannot read #{term.inspect}; write PATH=WEIGHT, e.g. /sleep/50=80"
        raise ConfigError, "--mix: #{term.inspect} has weight 0" if m[2].to_i.zero?

        [m[1], m[2].to_i]
      end

      def whole_numbers(option, list)
        list.map do |v|
          Integer(v, 10)
        rescue ArgumentError
          raise ConfigError, "#{option}: want a list of whole numbers like 1,2,4, got #{list.join(",").inspect}"
        end
      end

      def bytes(text)
        Capacity.bytes(text) or raise ConfigError, "--memory: cannot read #{text.inspect}; write e.g. 512MB or 2GB"
      end

      def searches(text)
        value = Integer(text, exception: false)
        least = Rackbench::Tune::KneeSample::MIN_CONFIRMED
        return value if value && value >= least

        raise ConfigError, "--searches: want a whole number of at least #{least}, got #{text.inspect}"
      end

      def probe_bounds_text = "#{Rackbench::Tune::Tuner::MIN_PROBE_S} to #{Rackbench::Tune::Tuner::MAX_PROBE_S} s"

      # --probe-s holds to the suite key probe_s's bounds (Suite::KEYS), in its words.
      def probe_seconds(text)
        knob = Suite::KEYS.fetch("probe_s")
        value = Float(text, exception: false)
        problem = value ? knob.problem(value) : "must be #{knob.expectation}"
        raise ConfigError, "--probe-s #{problem}, got #{text.inspect}" if problem

        value
      end

      def seconds(text)
        m = text.match(/\A(\d+(?:\.\d+)?)\s*(s|m)?\z/) or raise ConfigError,
                                                                "--budget: cannot read #{text.inspect}; write e.g. 240 or 4m"
        value = m[1].to_f * (m[2] == "m" ? 60 : 1)
        raise ConfigError, "--budget must be more than 0, got #{text.inspect}" unless value.positive?

        value
      end
    end
  end
end
