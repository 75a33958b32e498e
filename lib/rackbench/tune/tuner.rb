# frozen_string_literal: true

require "fileutils"
require "json"

module Rackbench
  module Tune
    # `rackbench tune`: search the knees of a Space's configs. Budgeted, a
    # Policy says each step: search a config (its first search, or one more
    # to confirm the leader or the runner-up until Separation says the
    # ranking is settled), screen one (its closed-loop capacity on a fresh
    # deployment: below SCREEN of the leader's knee it is not searched), or
    # stop; --grid gives every config all --searches. One search: on a fresh
    # deployment check the endpoint, find a Knee under the SLO, deploy afresh
    # and confirm the knee there (Knee#confirm), record every probe, stop it;
    # a config's searches make its KneeSample. Probes last long enough for
    # the SLO's percentile (Slo#requests_needed: 1,000 requests for p99),
    # from PROBE_S to MAX_PROBE_S. Every probe is a cell of a stored run (its
    # CellKey: the config, the offered rate, the config's turn as its
    # variant; one repeat), so `rackbench report` renders them; the answer is
    # an Answer. Created by CLI::Tune.
    class Tuner
      # knee: the config's KneeSample; search_s and screen_s: the wall time of its searches and of its screen.
      Outcome = Struct.new(:config, :label, :knee, :pss_bytes, :cpu_percent, :error, :search_s, :screen_s,
                           keyword_init: true) do
        # The knee: an offered rate probed and met in a search's confirming
        # probes; nil without one (or with fewer than two confirmed searches).
        def rate = knee&.rate
        def offered_rate = knee&.rate
        # Where the knee lies: Student t over the searches (KneeSample#interval).
        def ci = knee&.interval

        # Where the searches put the knee: the geometric mean of their
        # bracket centres (KneeSample#centres), what the answer ranks by; the rate without them.
        def level_rps
          centres = knee.respond_to?(:centres) ? knee.centres : []
          centres.empty? ? rate : Math.exp(centres.sum { |c| Math.log(c) } / centres.size)
        end

        def searches = knee&.searches
        def unconfirmed? = knee&.unconfirmed? || false
        # Not searched: its closed-loop capacity (capacity_rps) was below SCREEN of the leader's knee.
        def screened? = knee&.screened? || false
        # Screened in, not searched yet.
        def waiting? = !capacity_rps.nil? && searches.to_i.zero? && !screened?
        def capacity_rps = knee&.capacity_rps
        def p99_ms = knee&.knee_repeat&.then { |r| r.latency_us(99).to_f / 1000 }
        # Requests behind p99_ms (the probe at the knee): p99 needs 1,000.
        def knee_requests = knee&.knee_repeat&.then { |r| r.result.requests }
      end

      SEARCHES = 3
      # A config is screened out, unsearched, when its closed-loop capacity
      # (the better of two estimate seconds) is below this share of the
      # leader's knee: an open-loop rate under a latency bound does not pass
      # the capacity, so it could not come within the search's resolution.
      SCREEN = 0.8

      # The shortest probe, unless the command (--probe-s) or the suite
      # (probe_s:) says otherwise: from MIN_PROBE_S to MAX_PROBE_S. A rate
      # whose SLO percentile needs more requests than it brings in the
      # shortest probe gets a longer one (probe_s). The default and bounds
      # are the suite key's (Suite::KEYS), which tune SUITE.yml and rates: auto read.
      PROBE_S = Suite::KEYS.fetch("probe_s").default
      MIN_PROBE_S = Suite::KEYS.fetch("probe_s").min
      MAX_PROBE_S = Suite::KEYS.fetch("probe_s").max
      PROBE_WARMUP_S = 0.5
      # The estimate's clients: twice the config's threads (workers x threads),
      # so a large config's capacity is not capped by the clients, within bounds.
      ESTIMATE_CLIENTS = (16..256)

      attr_reader :outcomes, :run_id, :elapsed_s, :answer

      # endpoint: a path ("/sleep/50"), or mix: [[path, weight], ...] to tune
      # against a weighted mix of endpoints served at once (Traffic), or
      # workload: a suite's "endpoints" (one) and "mix" keys as they are.
      def initialize(app:, space:, slo:, store:, supervisor:, budget_s:, endpoint: nil, mix: nil, workload: nil,
                     grid: false, memory_bytes: nil, out: nil, searches: SEARCHES, probe_s: PROBE_S)
        @app = app
        @workload = workload || workload_of(endpoint, mix)
        @space = space
        @slo = slo
        @store = store
        @supervisor = supervisor
        @budget_s = budget_s
        @grid = grid
        @searches = searches
        @probe_s = probe_s
        @memory_bytes = memory_bytes
        @out = out
        @outcomes = []
        @policy = Policy.new(order: space, budget_s: budget_s, searches: searches, slo: slo, memory_bytes: memory_bytes)
        @position = 0
        @pinning = Pinning.choose(enabled: true)
        @engine = Engines.fetch("native").new
        @window = Window.new(engine: @engine, supervisor: supervisor, pinning: @pinning)
      end

      def run
        reason = @engine.unavailable_reason
        raise ConfigError, "engine #{@engine.name}: #{reason}" if reason

        started = now
        suite = Suite.new(suite_data.to_yaml, path: "(tune)")
        @endpoint = suite.endpoints.last
        @traffic = Traffic.new(@endpoint)
        @name = @endpoint["name"]
        @run = @store.create_run(suite: suite, settings: suite.data.merge("tune" => settings), machine: machine,
                                 pinning: @pinning.to_h)
        @run_id = @run["id"]
        status = "interrupted"
        begin
          search(started)
          status = "finished"
        ensure
          @supervisor.stop_all
          @elapsed_s = now - started
          @answer = Answer.new(self, slo: @slo, memory_bytes: @memory_bytes)
          @store.merge_settings(@run_id, "tune_answer" => @answer.to_h.merge("elapsed_s" => @elapsed_s.round(1)))
          @store.finish_run(@run_id, status)
        end
        self
      end

      private

      def suite_data = { "name" => "tune", "app" => @app, "servers" => @space.grid }.merge(@workload)

      def workload_of(endpoint, mix)
        return { "endpoints" => [endpoint] } unless mix

        { "endpoints" => mix.map(&:first).uniq, "mix" => mix.map { |path, weight| { "endpoint" => path, "weight" => weight } } }
      end

      def settings
        { "slo" => @slo.to_s, "budget_s" => @budget_s, "grid" => @grid, "server" => @space.server,
          "space" => @space.knobs, "memory_bytes" => @memory_bytes,
          "probe_s" => @probe_s, "max_probe_s" => MAX_PROBE_S, "probe_requests" => @slo.requests_needed,
          "probe_warmup_s" => PROBE_WARMUP_S, "arrivals" => "poisson", "searches" => @searches,
          "deployments" => 2 * @searches }
      end

      def machine = Environment.capture.merge("engine" => @engine.name, "engine_version" => @engine.version)

      # Budgeted: the Policy's steps while it has one; --grid: every config, all @searches.
      def search(started)
        return @space.grid.each { |config| search_config(config, @searches) } if @grid

        while (step = @policy.next_step(@outcomes, spent_s: now - started))
          step.action == :screen ? screen(step.config) : search_config(step.config, 1)
        end
      end

      # A config's next searches: its first (after its screen, if it had one)
      # or one more; a failure keeps the searches already made.
      def search_config(config, searches)
        index = @outcomes.index { |o| o.config == config } || @outcomes.size
        @turn = index + 1
        before = @outcomes[index]
        searched = measure(config, searches, from: before&.knee)
        searched.search_s += before&.search_s.to_f
        searched.screen_s = before&.screen_s
        keep = searched.error && before&.searches.to_i.positive?
        @outcomes[index] = keep ? before.tap { |o| o.search_s = searched.search_s } : searched
      end

      # A config's closed-loop capacity on a fresh deployment, screened
      # against SCREEN of the leader's knee (KneeSample.screen).
      def screen(config)
        @turn = @outcomes.size + 1
        started = now
        server = Servers.fetch(config["server"]).new(config)
        trial = trial_for(server)
        bar = Answer.new(self, slo: @slo, memory_bytes: @memory_bytes).best.rate * SCREEN
        sample = KneeSample.screen(estimate: -> { estimate(trial, config) }, below: bar)
        @outcomes << outcome(config, server, sample).tap { |o| o.screen_s = now - started }
      rescue ServiceError, SystemCallError, IOError => e
        @outcomes << failed(config, server, e).tap { |o| o.screen_s = now - started }
      ensure
        trial&.stop
      end

      # The config's KneeSample: `searches` searches (after those of `from`), each on fresh deployments.
      def measure(config, searches, from: nil)
        started = now
        server = Servers.fetch(config["server"]).new(config)
        trial = nil
        deploy = lambda do |number|
          trial&.stop
          trial = trial_for(server)
          probe(server, trial, number)
        end
        sample = KneeSample.search(slo: @slo, searches: searches, random: random(from), deploy: deploy,
                                   estimate: -> { estimate(trial, config) }, from: from)
        outcome(config, server, sample).tap { |o| o.search_s = now - started }
      rescue ServiceError, SystemCallError, IOError => e
        failed(config, server, e).tap { |o| o.search_s = now - started }
      ensure
        trial&.stop
      end

      def failed(config, server, error)
        @out&.puts "  #{server&.label || config}: failed: #{error.message.lines.first&.strip}" # progress, a line a config
        Outcome.new(config: config, label: server&.label || config.to_s, error: error.message)
      end

      # The seeded draws of a config's next searches: by its turn and the searches it has had.
      def random(from) = Random.new((@turn * 1000) + (from ? from.searches : 0))

      def outcome(config, server, sample)
        repeat = sample.knee_repeat
        @out&.puts "  #{server.label}: #{knee_text(sample)}"
        Outcome.new(config: config, label: server.label, knee: sample, pss_bytes: repeat&.resources&.dig("pss_max_bytes"),
                    cpu_percent: repeat&.cpu_percent)
      end

      # A fresh Trial of server: started, its traffic checked by the
      # AnswerRule (the catalogue's, for a bundled app), its drain calibrated.
      def trial_for(server)
        dir = File.join(@run["dir"], format("%02d-%s", @turn, Words.slug(server.label)))
        env = Apps.default_env(dir)
        trial = Trial.new(server, supervisor: @supervisor, dir: dir, app: app_path, window: @window, env: env,
                                  rule: AnswerRule.new(catalogue: Apps.bundled?(@app), env: env), cpus: @pinning.server_cpus,
                                  log_root: @store.dir).start
        trial.verify!(@endpoint)
        trial.drain(path: @traffic.path, timeout_s: 30)
        trial
      end

      def knee_text(sample)
        text = if sample.searches.zero?
                 format("closed-loop capacity %.0f req/s, %s %.0f %% of the leader's knee%s", sample.capacity_rps,
                        sample.screened? ? "below" : "at least", SCREEN * 100, sample.screened? ? ": not searched" : "")
               elsif sample.rate
                 "#{Reports::TuneAnswer.rate_text(sample.rate, sample.interval&.to_a, sample.searches)} " \
                   "(#{sample.probes.size} probes on #{2 * sample.searches} deployments)"
               elsif sample.unconfirmed?
                 "knee not confirmed: #{sample.confirmed.size} of #{sample.searches} searches confirmed on a fresh deployment"
               else
                 "meets the SLO at no rate"
               end
        failures = sample.failures
        failures.empty? ? text : "#{text}; probes that measured nothing: #{failures.first(2).join("; ")}"
      end

      def app_path = Apps.bundled?(@app) ? Apps.path(@app) : File.expand_path(@app)

      # A closed-loop second at twice the config's threads: where the rate search starts.
      def estimate(trial, config)
        load = Engines::Load.new(target: trial.target(@traffic.path), concurrency: estimate_clients(config), duration_s: 1,
                                 warmup_s: 0.2, timeout_s: 10, traffic: @traffic, rule: trial.rule)
        @engine.run(load, supervisor: @supervisor, dir: trial.dir, cpus: @pinning.client_cpus,
                          log_name: "estimate.out").requests_per_s
      end

      def estimate_clients(config)
        threads = [config.fetch("workers", 1).to_i, 1].max * config.fetch("threads", 1).to_i
        (2 * threads).clamp(ESTIMATE_CLIENTS)
      end

      # Knee's probe on trial (number: its deployment, 1 or 2).
      def probe(server, trial, number)
        target = trial.target(@traffic.path)
        lambda do |rate|
          load = Engines::Load.new(target: target, concurrency: connections(rate), duration_s: probe_s(rate),
                                   warmup_s: PROBE_WARMUP_S, rate: rate, timeout_s: 10, traffic: @traffic,
                                   arrivals: "poisson", seed: @position + 1, rule: trial.rule)
          repeat = trial.measure(load, dir: trial.dir, log_name: "probe-#{@position + 1}.out")
          record(server, rate, load, repeat, number)
          repeat
        rescue ServiceError => e
          raise unless trial.alive? # a dead server ends the config; a stalled probe only misses

          raise Knee::Failed, e.message.lines.first.to_s.strip
        end
      end

      # Long enough for the SLO's percentile: its requests_needed at this rate, within bounds.
      def probe_s(rate) = (@slo.requests_needed / rate.to_f).clamp(@probe_s, MAX_PROBE_S).round(1)

      # Open loop needs a connection free for every request in flight: the
      # rate times the SLO's latency, twice over, within bounds.
      def connections(rate) = (rate * @slo.latency_us / 1_000_000.0 * 2).ceil.clamp(8, 1024)

      def record(server, rate, load, repeat, deployment)
        @position += 1
        repeat.index = 1
        repeat.deployment = deployment
        key = CellKey.build(server.config, endpoint: { "name" => @name, "path" => @traffic.path }, concurrency: load.concurrency,
                                           offered_rate_per_s: rate, variant: @turn, config_label: server.label)
        row = key.columns.merge("position" => @position, "engine" => @engine.name, "status" => "ok",
                                "server_version" => server.class.version, "engine_command" => repeat.result.command,
                                "started_at" => repeat.started_at, "requests_per_s" => repeat.requests_per_s,
                                "requests" => repeat.result.requests, "errors" => repeat.result.error_count)
        @store.add_repeat(@run_id, @position, repeat)
        @store.add_cell(@run_id, row)
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
