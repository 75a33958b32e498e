# frozen_string_literal: true

require "English"
require "fileutils"
require "set"
require_relative "runner/resuming"
require_relative "runner/deployments"
require_relative "runner/recording"
require_relative "runner/warm_up"

module Rackbench
  # Runs a Plan: start the suite's services, then measure every cell in
  # windows, in the order the Schedule gives, over several server starts
  # (RepeatPolicy; a start, not a window, is the unit of noise):
  #
  #   for each start (epoch: a fresh deployment of every server config still needed):
  #     for each level (concurrency) -- or, sequential, each server config:
  #       deploy the configs needed there, side by side (a Trial each)
  #       for each block (one endpoint; its cells are the configs to compare):
  #         rounds: each cell once, in the Schedule's order -> Trial#measure
  #         (drain, warm-up, load, sample) -> Store#add_repeat
  #     after the first stage's last start: decide, once, how many starts each
  #     block needs (RepeatPolicy#starts_needed); a block that has them all
  #     is done: Store#add_cell for each of its cells
  #
  # Every endpoint is verified once per deployment before it is measured
  # (Trial#verify!, by the one AnswerRule).
  # Faults (a server that never gets ready, exits, stalls, never drains or
  # answers wrongly) become failed cells with their reason and log tail; the
  # suite goes on.
  #
  # The listener gets, in this order: run_started(run, plan); per repeat
  # repeat_finished(cell, repeat); per cell cell_finished(cell, measurement)
  # (failed cells too); then run_finished(run).
  class Runner
    include Resuming
    include Deployments
    include Recording
    include WarmUp

    SHORT_WARMUP_S = 0.25 # later windows on a warm deployment: reconnect only

    CellState = Struct.new(:cell, :repeats, :load_s, :done, keyword_init: true)
    # A Trial of a server config in one epoch: its deployment number, the
    # cells warmed on it and the measured requests it has served.
    Live = Struct.new(:key, :trial, :epoch, :number, :warmed, :requests, keyword_init: true)

    attr_reader :suite, :plan, :store, :supervisor, :pinning, :schedule, :policy

    # resume: a Resume, to continue its run instead of starting one; doctor:
    # the findings of `rackbench doctor` (hashes), stored in the run's machine.
    def initialize(suite, store:, supervisor: Supervisor.new, listener: nil, resume: nil, doctor: nil)
      raise ConfigError, "rates: auto is found before the run (rackbench run does: Tune::AutoRates)" if suite["rates"] == "auto"

      @suite = suite
      @doctor = doctor
      @resume = resume
      @plan = resume ? resume.plan : Plan.new(suite)
      @store = store
      @supervisor = supervisor
      @listener = listener
      @engine = Engines.fetch(suite["engine"]).new
      @pinning = Pinning.choose(enabled: suite["pin"])
      @schedule = Schedule.new(order: suite["order"], seed: suite["seed"] || Schedule.new_seed)
      @policy = RepeatPolicy.new(settings)
      @window = Window.new(engine: @engine, supervisor: supervisor, pinning: @pinning)
    end

    def run
      reason = @engine.unavailable_reason
      raise ConfigError, "engine #{@engine.name}: #{reason}" if reason

      @run = if @resume then store.reopen_run(@resume.id, suite: suite)
             else store.create_run(suite: suite, settings: settings, machine: machine, pinning: pinning.to_h, plan: plan)
             end
      emit(:run_started, @run, plan)
      reset_states
      restore if @resume
      status = "interrupted"
      begin
        @fleet = Hosts::Fleet.start(suite, supervisor: supervisor, dir: @run["dir"]) # suites with hosts: (Hosts)
        @window = @fleet.window(@window) if @fleet
        @service_env = own_app.env(Apps.default_env(@run["dir"]).merge(start_services))
        own_app.setup!(supervisor, File.join(@run["dir"], "setup"), @service_env, log_root: store.dir)
        fail_unavailable
        run_starts
        store.merge_settings(@run["id"], "budget_spent_after_starts" => @budget.spent_after) if @budget&.spent_after
        status = "finished"
      ensure
        retire(@live.keys)
        @services&.each { |s| s.stop(supervisor) }
        @fleet&.close
        supervisor.stop_all
        @duet&.close
        store.finish_run(@run["id"], status, ended_by: $ERROR_INFO) # what stopped the run: nil once finished
      end
      emit(:run_finished, store.run(@run["id"]))
      @run["id"]
    end

    # What the run will cost, said before anything starts (RunEstimate).
    def estimate = RunEstimate.new(plan, policy, schedule)

    private

    # Each cell's repeats so far, the live deployments, the deployment and
    # round counters, and the starts each block needs (known after the first stage).
    def reset_states
      @states = plan.cells.to_h { |c| [c.index, CellState.new(cell: c, repeats: [], load_s: 0.0, done: false)] }
      @live = {}
      @deployed = Hash.new(0)
      @rounds = Hash.new(0)
      @starts_needed = {}
      @epoch_first_round = {}
    end

    # The suite's data plus what this run decided: the seed it drew, and how
    # auto stops (stored, so reports of older runs keep their own rule).
    def settings
      decided = %w[stopping equivalence_spending].to_h { |key| [key, suite[key] || Suite::KEYS.fetch(key).default] }
      suite.data.merge("seed" => schedule.seed, **decided)
    end

    def machine
      found = Environment.capture.merge("engine" => @engine.name, "engine_version" => @engine.version,
                                        "app_bundles" => own_app.provenance, "rackbench_pid" => Process.pid)
      @doctor ? found.merge("doctor" => @doctor) : found
    end

    def own_app = @own_app ||= OwnApp.new(suite)

    # Starts the suite's backing services; returns the env vars the app gets.
    def start_services
      @services = []
      (suite["services"] || []).each_with_object({}) do |config, env|
        service = Services.fetch(config["service"]).new(config)
        @services << service
        dir = File.join(@run["dir"], "service-#{config["service"]}")
        FileUtils.mkdir_p(dir)
        env.merge!(service.start(supervisor, dir))
      end
    end

    # What the app depends on: the services rackbench started, then the
    # suite's depends_on: (Dependency), each checked to be running.
    def dependencies
      @dependencies ||= (@services || []).map { |s| Dependency.running(s.name, s.children.map(&:pid)) } +
                        suite["depends_on"].to_a.map { |entry| Dependency.new(entry).tap(&:root_pids) }
    end

    # Before anything is measured: each depends_on: entry names something
    # running (else the run stops), and cells whose server cannot run here fail.
    def fail_unavailable
      dependencies
      plan.groups.each do |group|
        server = server_for(group)
        why = server.class.unavailable_reason_in(app_bundle(group.server_config)) || server.proxy_class&.unavailable_reason
        group.cells.each { |cell| fail_cell(cell, "#{server.name} cannot run here: #{why}") } if why
      end
    end

    # The app's own bundle (AppBundle), asked once per app; nil for a bundled app.
    def app_bundle(server_config)
      key = [suite.app_path(*server_config["app"]), server_config.dig("env", "BUNDLE_GEMFILE")]
      (@app_bundles ||= {}).fetch(key) { @app_bundles[key] = AppBundle.for(key[0], gemfile: key[1]) }
    end

    # --- order ------------------------------------------------------------

    # Starts until every block is settled (sequential: looked at after each
    # start from the first stage's last) or has the starts Stein asked for;
    # then every cell still open is finished.
    def run_starts
      epoch = 0
      @budget = Budget.new(suite["budget_s"])
      run_epoch(epoch) while (epoch += 1) <= last_epoch && @budget.allows?(epoch)
      @states.each_value { |state| finish_cell(state.cell) }
    end

    def last_epoch = policy.sequential? ? policy.max_starts : [policy.starts, *@starts_needed.values].max

    def run_epoch(epoch)
      units.each do |blocks|
        blocks = blocks.select { |block| wants_start?(block, epoch) }
        next if blocks.empty?

        needed = blocks.flat_map(&:cells).reject { |c| @states[c.index].done }.map { |c| group_key(c) }.uniq
        retire(@live.keys - needed)
        blocks.each { |block| run_block(block, epoch) }
      end
      retire(@live.keys)
    end

    def block_key(block) = block.cells.map(&:index)

    def starts_for(block) = @starts_needed.fetch(block_key(block)) { policy.sequential? ? policy.max_starts : policy.starts }

    def wants_start?(block, epoch) = active(block).any? && epoch <= starts_for(block)

    # Interleaved and random: one unit per level, every config of the level
    # deployed side by side. Sequential: one unit per server config, each cell
    # a block of its own.
    def units
      return @schedule.levels(plan.cells).map(&:last) unless schedule.sequential?

      plan.groups.map do |group|
        group.cells.map { |c| Schedule::Block.new(concurrency: c.concurrency, endpoint: c.endpoint["name"], cells: [c]) }
      end
    end

    # Rounds until each cell has its windows up to this start (all of them in
    # a fresh run; what is missing in a resumed one). After the first stage
    # the block's number of starts is decided; the last finishes its cells.
    def run_block(block, epoch)
      deploy_side_by_side(block, epoch)
      fill_rounds(block, (1..epoch).sum { |e| policy.windows_in_start(e) }, epoch)
      if policy.sequential? then settle(block) if epoch >= policy.starts
      elsif epoch == policy.starts then decide_starts(block)
      end
      active(block).each { |c| finish_cell(c) } if epoch >= starts_for(block)
    end

    # Sequential: the block's question looked at after this start; the cells
    # it no longer needs (all, once settled) are finished.
    def settle(block)
      policy.settled_cells(active(block), ->(cell) { @states[cell.index].repeats }).each { |c| finish_cell(c) }
      active(block).select { |c| @states[c.index].load_s >= policy.max_cell_s }.each { |c| finish_cell(c) }
    end

    # Stein's decision, once per block, from the first stage's starts.
    def decide_starts(block)
      samples = active(block).map do |c|
        StartSample.of(@states[c.index].repeats, start_of: :deployment.to_proc, value_of: :good_requests_per_s.to_proc)
      end
      @starts_needed[block_key(block)] = policy.starts_needed(samples)
    end

    # Rounds of the block's cells short of `due` repeats until none is.
    def fill_rounds(block, due, epoch)
      # each round adds a repeat to each of them, or fails it (done)
      while (short = active(block).select { |c| @states[c.index].repeats.size < due }).any?
        run_round(block, short, epoch)
      end
    end

    def run_round(block, cells, epoch)
      key = block_key(block)
      @rounds[key] = resumed_round(block) if @resume && !@rounds.key?(key)
      round = (@rounds[key] += 1)
      first = (@epoch_first_round[[key, epoch]] ||= round)
      turn = Schedule.turn(epoch: epoch, round_in_epoch: round - first)
      ordered = schedule.round_order(cells, round, turn: turn)
      return measure_duet(ordered, round, epoch) if duet?(ordered)

      ordered.each { |cell| measure_repeat(cell, round, epoch) }
    end

    # Every config of the block is started before any of them is measured,
    # in the order of the start's first round: no config is measured while
    # another one boots, or measured alone before its neighbours exist.
    def deploy_side_by_side(block, epoch)
      cells = active(block)
      return if cells.size < 2 || schedule.sequential?

      schedule.round_order(cells, @rounds[block_key(block)] + 1, turn: Schedule.turn(epoch: epoch, round_in_epoch: 0))
              .each { |cell| live_for(cell, epoch) }
    end

    def active(block) = block.cells.reject { |c| @states[c.index].done }

    # --- one repeat -------------------------------------------------------

    # One window about to be measured: its cell, live deployment, load and folder.
    Prepared = Struct.new(:cell, :live, :load, :dir, :number, :warmed, keyword_init: true)

    def measure_repeat(cell, round, epoch)
      window = prepare(cell, epoch) or return
      trial = window.live.trial
      repeat = trial.measure(window.load, dir: window.dir, dependencies: dependencies, neighbours: neighbours(window.live),
                                          log_name: "#{@engine.name}-r#{window.number}.out")
      measured(window, repeat, round)
    rescue ServiceError, ConfigError => e
      window_failed(cell, e, window&.live)
    end

    # The window's deployment checked (its answers, then idle), and, on the
    # cell's first window of the start, warmed up: nil when the cell is done
    # or its deployment could not start.
    def prepare(cell, epoch)
      state = @states[cell.index]
      return nil if state.done

      live = live_for(cell, epoch) or return nil
      trial = live.trial
      trial.verify!(cell.endpoint, timeout_s: suite["timeout_s"])
      drain = trial.drain(path: drain_path(cell), timeout_s: suite["drain_timeout_s"])
      number = state.repeats.size + 1
      first, steady, load = window_load(live, cell, number)
      cell_dir = File.join(trial.dir, "c#{cell.index}").tap { |d| FileUtils.mkdir_p(d) }
      warmed = prepare_window(load, drain, trial.server, File.join(cell_dir, "reset-r#{number}"), first: first, steady: steady)
      Prepared.new(cell: cell, live: live, load: load, dir: cell_dir, number: number, warmed: warmed)
    rescue ServiceError, ConfigError => e
      window_failed(cell, e, live)
      nil
    end

    def neighbours(live) = @live.values.reject { |other| other.equal?(live) }.flat_map { |other| other.trial.pids }

    def measured(window, repeat, round)
      warmed!(window.live, window.cell, repeat, window.warmed)
      keep(@states[window.cell.index], window.live, repeat, round, window.load)
    end

    def window_failed(cell, error, live)
      fail_cell(cell, error.message, error.respond_to?(:log_tail) ? error.log_tail : nil, live&.trial)
      retire([live.key]) if live && !live.trial.alive?
    end

    # --- duet ----------------------------------------------------------------

    # duet: true measures the configs of a round at the same time (Duet),
    # only where every config runs on this machine.
    def duet?(cells) = suite["duet"] && cells.size >= 2 && !schedule.sequential? && @fleet.nil?

    # Each cell prepared in turn (checked, warmed up), every server drained,
    # then every window loaded at once; the repeats kept in the round's order.
    def measure_duet(cells, round, epoch)
      windows = cells.filter_map { |cell| prepare(cell, epoch) }.select { |w| drained?(w) }
      @duet ||= Duet.new(dependencies: dependencies, log_name: ->(w) { "#{@engine.name}-r#{w.number}.out" })
      @duet.measure(windows).each do |window, repeat, error|
        error ? window_failed(window.cell, error, window.live) : measured(window, repeat, round)
      end
    end

    # Every partner idle before any is loaded; a server that never drains fails its cell.
    def drained?(window)
      window.live.trial.drain(path: drain_path(window.cell), timeout_s: suite["drain_timeout_s"]).wait
      true
    rescue ServiceError => e
      window_failed(window.cell, e, window.live)
      false
    end

    # Whether this is the cell's first window on the start, whether it warms
    # up until steady, and the window's load (its warm-up: the suite's on a
    # first window, a reconnect after that or after a steady warm-up); window:
    # the cell's window number.
    def window_load(live, cell, window)
      trial = live.trial
      first = !live.warmed.include?(cell.index)
      steady = first && SteadyWarmup.wanted?(suite, trial.server, suite.app_path(*trial.server.config["app"]))
      [first, steady, load_for(trial, cell, warmup_s: first && !steady ? suite["warmup_s"].to_f : short_warmup_s, window:)]
    end

    # A measured window becomes the cell's next repeat: numbered, tied to its
    # start and round, stored, and told to the listener.
    def keep(state, live, repeat, round, load)
      live.requests = live.requests.to_i + repeat.result.requests.to_i
      repeat.resources["memory"]&.store("requests", live.requests) # measured requests this deployment served so far
      repeat.index = state.repeats.size + 1
      repeat.deployment = live.number
      repeat.round = schedule.sequential? ? nil : round
      store.add_repeat(@run["id"], state.cell.index, repeat)
      state.repeats << repeat
      # load as RepeatPolicy counts it (a window and a short re-warm-up); a window
      # of a number of requests (ab -n) lasts what it took
      window_s = load.requests ? repeat.result.duration_s : load.duration_s
      state.load_s += window_s.to_f + [load.warmup_s.to_f, SHORT_WARMUP_S].min
      emit(:repeat_finished, state.cell, repeat)
    end

    # The probe path of the drain: the suite's drain_path, else the bundled
    # apps' cheapest endpoint, else the cell's own.
    def drain_path(cell)
      return suite["drain_path"] if suite["drain_path"]

      app = cell.server_config["app"] || suite["app"]
      Apps.bundled?(app) ? "/hello" : Traffic.new(cell.endpoint).path
    end

    def load_for(trial, cell, warmup_s:, window:)
      traffic = Traffic.new(cell.endpoint)
      Engines::Load.new(target: trial.target(traffic.path), concurrency: cell.concurrency, threads: suite["client_threads"],
                        duration_s: suite["duration_s"], warmup_s: warmup_s, requests: suite["requests"],
                        timeout_s: suite["timeout_s"], rate: cell.rate || suite["rate"], keepalive: suite["keepalive"],
                        traffic: traffic, request_start: suite["explain"], arrivals: cell.arrivals(suite["arrivals"]),
                        seed: schedule.window_seed(window), slow_clients: Engines::SlowClients.from_suite(suite),
                        rule: trial.rule)
    end

    def emit(event, *args)
      @listener&.public_send(event, *args) if @listener.respond_to?(event)
    end
  end
end
