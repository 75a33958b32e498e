# frozen_string_literal: true

require "English"
require "fileutils"
require "set"
require_relative "runner/resuming"

module Rackbench
  # Runs a Plan: start the suite's services, then measure every cell in
  # windows, in the order the Schedule gives, over several server starts
  # (RepeatPolicy; a start, not a window, is the unit of noise):
  #
  #   for each start (epoch: a fresh deployment of every server config still needed):
  #     for each level (concurrency) -- or, sequential, each server config:
  #       deploy the configs needed there, side by side
  #       for each block (one endpoint; its cells are the configs to compare):
  #         rounds: each cell once, in the Schedule's order -> Window (drain,
  #         warm-up, load, sample) -> Store#add_repeat
  #     after the first stage's last start: decide, once, how many starts each
  #     block needs (RepeatPolicy#starts_needed); a block that has them all
  #     is done: Store#add_cell for each of its cells
  #
  # Every endpoint is verified once per deployment before it is measured.
  # Faults (a server that never gets ready, exits, stalls, never drains or
  # answers wrongly) become failed cells with their reason and log tail; the
  # suite goes on.
  #
  # The listener gets, in this order: run_started(run, plan); per repeat
  # repeat_finished(cell, repeat); per cell cell_finished(cell, measurement)
  # (failed cells too); then run_finished(run).
  class Runner
    include Resuming

    SHORT_WARMUP_S = 0.25 # later windows on a warm deployment: reconnect only

    CellState = Struct.new(:cell, :repeats, :load_s, :done, keyword_init: true)
    Live = Struct.new(:key, :server, :deployment, :dir, :epoch, :number, :verified, :warmed, :drain, :probe_dir,
                      :requests, keyword_init: true)

    attr_reader :suite, :plan, :store, :supervisor, :pinning, :schedule, :policy

    # resume: a Resume, to continue its run instead of starting one; doctor:
    # the findings of `rackbench doctor` (hashes), stored in the run's machine.
    def initialize(suite, store:, supervisor: Supervisor.new, listener: nil, resume: nil, doctor: nil)
      @suite = suite
      @doctor = doctor
      @resume = resume
      @plan = resume ? resume.plan : Plan.new(suite)
      @store = store
      @supervisor = supervisor
      @listener = listener
      @engine = Engines.fetch(suite["engine"]).new
      @pinning = Pinning.choose(enabled: suite["pin"])
      @policy = RepeatPolicy.new(suite.data)
      @schedule = Schedule.new(order: suite["order"], seed: suite["seed"] || Schedule.new_seed)
      @window = Window.new(engine: @engine, supervisor: supervisor, pinning: @pinning)
    end

    def run
      reason = @engine.unavailable_reason
      raise ConfigError, "engine #{@engine.name}: #{reason}" if reason

      @run = if @resume then store.reopen_run(@resume.id)
             else store.create_run(suite: suite, settings: settings, machine: machine, pinning: pinning.to_h, plan: plan)
             end
      emit(:run_started, @run, plan)
      @states = plan.cells.to_h { |c| [c.index, CellState.new(cell: c, repeats: [], load_s: 0.0, done: false)] }
      @live = {}
      @deployed = Hash.new(0)
      @rounds = Hash.new(0)
      @starts_needed = {}
      restore if @resume
      status = "interrupted"
      begin
        @fleet = Hosts::Fleet.start(suite, supervisor: supervisor, dir: @run["dir"]) # suites with hosts: (Hosts)
        @window = @fleet.window(@window) if @fleet
        @service_env = own_app.env(Apps.default_env(@run["dir"]).merge(start_services))
        own_app.setup!(supervisor, File.join(@run["dir"], "setup"), @service_env, log_root: store.dir)
        fail_unavailable
        run_starts
        status = "finished"
      ensure
        ended_by = $ERROR_INFO # what stopped the run: nil once finished
        retire(@live.keys)
        @services&.each { |s| s.stop(supervisor) }
        @fleet&.close
        supervisor.stop_all
        store.finish_run(@run["id"], status, ended_by: ended_by)
      end
      emit(:run_finished, store.run(@run["id"]))
      @run["id"]
    end

    private

    # The suite's data plus what this run decided: the seed it drew.
    def settings = suite.data.merge("seed" => schedule.seed)

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

    # Starts until every block has the starts it needs (known after the
    # first stage); then every cell still open is finished.
    def run_starts
      epoch = 0
      run_epoch(epoch) while (epoch += 1) <= [policy.starts, *@starts_needed.values].max
      @states.each_value { |state| finish_cell(state.cell) }
    end

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

    def starts_for(block) = @starts_needed.fetch(block_key(block), policy.starts)

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
      fill_rounds(block, (1..epoch).sum { |e| policy.windows_in_start(e) }, epoch)
      decide_starts(block) if epoch == policy.starts
      active(block).each { |c| finish_cell(c) } if epoch >= starts_for(block)
    end

    # Stein's decision, once per block, from the first stage's starts.
    def decide_starts(block)
      samples = active(block).map do |c|
        StartSample.of(@states[c.index].repeats, start_of: :deployment.to_proc, value_of: :good_requests_per_s.to_proc)
      end
      per_start_s = (suite["duration_s"].to_f + [suite["warmup_s"].to_f, SHORT_WARMUP_S].min) * policy.windows
      @starts_needed[block_key(block)] = policy.starts_needed(samples, load_s_per_start: per_start_s)
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
      schedule.round_order(cells, round).each { |cell| measure_repeat(cell, round, epoch) }
    end

    def active(block) = block.cells.reject { |c| @states[c.index].done }

    # --- one repeat -------------------------------------------------------

    def measure_repeat(cell, round, epoch)
      state = @states[cell.index]
      return if state.done

      live = live_for(cell, epoch) or return
      traffic = Traffic.new(cell.endpoint)
      target = live.deployment.target(traffic.path)
      verify_traffic(traffic, cell, live)
      live.drain ||= Drain.new(live.deployment, path: drain_path(cell), timeout_s: suite["drain_timeout_s"]).calibrate
      first = !live.warmed.include?(cell.index)
      warmup_s = first ? suite["warmup_s"].to_f : [suite["warmup_s"].to_f, SHORT_WARMUP_S].min
      load = load_for(target, cell, traffic, warmup_s: warmup_s)
      cell_dir = File.join(live.dir, "c#{cell.index}").tap { |d| FileUtils.mkdir_p(d) }
      n = state.repeats.size + 1
      warm_up(load, live, cell_dir) if first
      neighbours = @live.values.reject { |other| other.equal?(live) }.flat_map { |other| other.deployment.pids }
      repeat = @window.measure(live.deployment, load, dir: cell_dir, drain: live.drain, dependencies: dependencies,
                                                      neighbours: neighbours, log_name: "#{@engine.name}-r#{n}.out",
                                                      probe_dir: live.probe_dir)
      live.warmed << cell.index
      live.requests = live.requests.to_i + repeat.result.requests.to_i
      repeat.resources["memory"]&.store("requests", live.requests) # measured requests this deployment served so far
      repeat.index = n
      repeat.deployment = live.number
      repeat.round = schedule.sequential? ? nil : round
      store.add_repeat(@run["id"], cell.index, repeat)
      state.repeats << repeat
      state.load_s += load.duration_s.to_f + load.warmup_s.to_f
      emit(:repeat_finished, cell, repeat)
    rescue ServiceError, ConfigError => e
      fail_cell(cell, e.message, e.respond_to?(:log_tail) ? e.log_tail : nil, live&.deployment)
      retire([live.key]) if live && !live.deployment.alive?
    end

    # The probe path of the drain: the suite's drain_path, else the bundled
    # apps' cheapest endpoint, else the cell's own.
    def drain_path(cell)
      return suite["drain_path"] if suite["drain_path"]

      app = cell.server_config["app"] || suite["app"]
      Apps.bundled?(app) ? "/hello" : Traffic.new(cell.endpoint).path
    end

    def load_for(target, cell, traffic, warmup_s:)
      Engines::Load.new(target: target, concurrency: cell.concurrency, threads: suite["client_threads"],
                        duration_s: suite["duration_s"], warmup_s: warmup_s,
                        requests: suite["requests"], timeout_s: suite["timeout_s"],
                        rate: cell.rate || suite["rate"], keepalive: suite["keepalive"], traffic: traffic,
                        request_start: suite["explain"], arrivals: arrivals(cell))
    end

    # Open loop's arrivals: the suite's, or (auto) Poisson in a rate sweep.
    def arrivals(cell)
      chosen = suite["arrivals"]
      return chosen unless chosen.nil? || chosen == "auto"

      cell.rate ? "poisson" : "uniform"
    end

    # An engine that cannot cut the warm-up from its own run gets a separate
    # warm-up run, after a drain; the Window drains again before measuring.
    def warm_up(load, live, cell_dir)
      return if @engine.warmup_in_run? || load.warmup_s.zero?

      warm = load.dup
      warm.duration_s = load.warmup_s
      warm.requests = nil
      live.drain.wait
      @engine.run(warm, supervisor: supervisor, dir: cell_dir, cpus: pinning.client_cpus, log_name: "warmup.out")
    rescue ServiceError
      nil # a warm-up failure shows again, measured, in the window itself
    end

    # --- deployments ------------------------------------------------------

    def group_key(cell) = [cell.server_index, cell.server_config]

    def groups = @groups ||= plan.groups.to_h { |g| [[g.server_index, g.server_config], g] }

    def server_for(group) = Servers.fetch(group.server_config["server"]).new(group.server_config)

    # The live deployment of the cell's server config for this epoch: started
    # (side by side with the others of its level) when there is none, or the
    # one there died. A start failure fails every unfinished cell of the group.
    def live_for(cell, epoch)
      key = group_key(cell)
      live = @live[key]
      retire([key]) if live && (live.epoch != epoch || !live.deployment.alive?)
      return @live[key] if @live[key]

      group = groups.fetch(key)
      server = server_for(group)
      number = (@deployed[key] += 1)
      dir = File.join(@run["dir"], format("%02d-%s", group.server_index + 1, slug(cell.key.config_label)), "d#{number}")
      FileUtils.mkdir_p(dir)
      setup_server(key, server, File.join(File.dirname(dir), "setup"))
      app = suite.app_path(*group.server_config["app"])
      rackup = suite["explain"] ? Probe::Wrapper.write(app: app, dir: dir) : nil
      deployment = Deployment.new(server, supervisor: supervisor, dir: dir, app: app, rackup: rackup,
                                          env: @service_env, cpus: pinning.server_cpus,
                                          ready_timeout_s: suite["ready_timeout_s"], ready_path: suite["ready_path"],
                                          host: @fleet&.server_connection(group.server_config), log_root: store.dir).start
      @live[key] = Live.new(key: key, server: server, deployment: deployment, dir: dir, epoch: epoch, number: number,
                            verified: {}, warmed: Set.new, probe_dir: rackup && Probe::Wrapper.probe_dir(dir))
    rescue ServiceError => e
      group.cells.each { |c| fail_cell(c, e.message, e.log_tail) }
      nil
    end

    # A server entry's own setup: commands, once per run before its first start.
    def setup_server(key, server, dir)
      return if (@set_up ||= Set.new).include?(key)

      own_app.server_setup!(server, supervisor, dir, @service_env, app_path: suite.app_path(*server.config["app"]),
                                                                   log_root: store.dir)
      @set_up << key
    end

    def retire(keys)
      keys.each { |key| @live.delete(key)&.deployment&.stop }
    end

    # --- checks -----------------------------------------------------------

    # Every endpoint is requested once and checked before it is measured:
    # against the suite's expect_status/expect_body, or else, for a bundled
    # app, against the catalogue's expected answer (Apps.expectation).
    # Each request of the cell's traffic (a mix: each member), once per deployment.
    def verify_traffic(traffic, cell, live)
      return if live.verified[cell.endpoint["name"]]

      traffic.members.each do |m|
        verify(m.request, live.deployment.target(m.request.path), live.deployment, cell.server_config["app"] || suite["app"])
      end
      live.verified[cell.endpoint["name"]] = true
    end

    # The endpoint's Request (method, headers, body) is sent as the load will send it.
    def verify(request, target, deployment, app = suite["app"])
      status, headers, body = request.perform(target, timeout_s: suite["timeout_s"])
      own_checks = request.expect_status || request.expect_body
      expectation = Apps.expectation(app, request.path, @service_env) unless own_checks
      return verify_bundled(request, expectation, status, headers, body) if expectation

      expected = request.expect_status ? Array(request.expect_status) : (200..399)
      unless expected.include?(status)
        raise ServiceError, "verify #{request.method} #{request.path}: status #{status}, expected " \
                            "#{Array(expected).join(" or ")}: #{body[0, 200].inspect}"
      end
      if request.expect_body && !body.include?(request.expect_body)
        raise ServiceError, "verify #{request.method} #{request.path}: body does not contain " \
                            "#{request.expect_body.inspect}: #{body[0, 200].inspect}"
      end
    rescue SystemCallError, IOError => e
      raise ServiceError.new("verify #{request.path}: #{e.message}", log_tail: deployment.children.first&.log_tail)
    end

    def verify_bundled(request, expectation, status, headers, body)
      problems = expectation.problems(status, headers, body)
      raise ServiceError, "verify #{request.path}: #{problems.join("; ")}" unless problems.empty?
    end

    # --- recording --------------------------------------------------------

    def finish_cell(cell)
      state = @states[cell.index]
      return if state.done

      state.done = true
      record(cell, "ok", state.repeats)
    end

    def fail_cell(cell, reason, log_tail = nil, deployment = nil)
      state = @states[cell.index]
      return if state.done

      state.done = true
      record(cell, "failed", state.repeats, reason: reason, log_tail: log_tail, deployment: deployment)
    end

    # The cell's row: its key's columns (label rendered from it) and how it went.
    def record(cell, status, repeats, reason: nil, log_tail: nil, deployment: nil)
      deployment ||= @live[group_key(cell)]&.deployment
      row = cell.key.columns.merge(
        "position" => cell.index, "engine" => @engine.name, "status" => status, "reason" => reason, "log_tail" => log_tail,
        "server_version" => deployment&.server_version || Servers.fetch(cell.server_name).version,
        "server_command" => deployment&.commands, "engine_command" => repeats.last&.result&.command,
        "started_at" => repeats.first&.started_at || Time.now.utc.iso8601(3)
      )
      measurement = Measurement.new(row, repeats, precision: policy.precision, first_stage: policy.first_stage)
      store.add_cell(@run["id"], row.merge(summary(measurement)))
      emit(:cell_finished, cell, measurement)
    end

    # The cell's figures as columns, for queries over the store.
    def summary(measurement)
      return {} unless measurement.ok?

      { "requests_per_s" => measurement.requests_per_s, "latency_mean_us" => measurement.latency_mean_ms&.*(1000),
        "latency_p99_us" => measurement.latency_ms(99)&.*(1000), "requests" => measurement.requests,
        "errors" => measurement.errors }
    end

    def emit(event, *args)
      @listener&.public_send(event, *args) if @listener.respond_to?(event)
    end

    def slug(text) = text.downcase.gsub(/[^a-z0-9]+/, "-").gsub(/\A-|-\z/, "")
  end
end
