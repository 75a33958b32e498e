# frozen_string_literal: true

require "English"
require "fileutils"
require_relative "runner/listener"
require_relative "runner/recorder"
require_relative "runner/resumer"
require_relative "runner/app_commands"
require_relative "runner/deployments"
require_relative "runner/warm_up"
require_relative "runner/repeats"
require_relative "runner/starts"
require_relative "../article/claim_looks"

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
  #     is done: Store#finish_cell for each of its cells
  #
  # The Runner sets the run up and tears it down; the rest is done by small
  # objects it creates, each given what it needs: Starts (the loop above),
  # Repeats (one round's windows), Deployments (the live Trials), WarmUp,
  # AppCommands (setup:, reset:), Recorder (cell states, stored repeats and
  # cells) and, for `run --resume`, Resumer.
  #
  # Every endpoint is verified once per deployment before it is measured
  # (Trial#verify!, by the one AnswerRule).
  # Faults (a server that never gets ready, exits, stalls, never drains or
  # answers wrongly) become failed cells with their reason and log tail; the
  # suite goes on.
  #
  # The listener gets, in this order: run_started(run, plan); on --resume,
  # per cell cell_restored(cell, repeats, done) (what the run had measured);
  # per repeat repeat_finished(cell, repeat); per cell cell_finished(cell,
  # measurement) (failed cells too); then run_finished(run).
  class Runner
    SHORT_WARMUP_S = 0.25 # later windows on a warm deployment: reconnect only

    attr_reader :suite, :plan, :store, :supervisor, :pinning, :schedule, :policy

    # A server adapter for a plan's group (its server config).
    def self.server_for(group) = Servers.fetch(group.server_config["server"]).new(group.server_config)

    # resume: a Resume, to continue its run instead of starting one; doctor:
    # the findings of `rackbench doctor` (hashes), stored in the run's machine;
    # questions: what its sequential looks follow instead of each block's
    # leader against its runner-up (a seed run's claims: Article::ClaimLooks,
    # handed in by `rackbench run`).
    def initialize(suite, store:, supervisor: Supervisor.new, listener: nil, resume: nil, doctor: nil, questions: nil)
      raise ConfigError, "rates: auto is found before the run (rackbench run does: Tune::AutoRates)" if suite["rates"] == "auto"

      @suite = suite
      @doctor = doctor
      @resume = resume
      @plan = resume ? resume.plan : Plan.new(suite)
      @store = store
      @supervisor = supervisor
      @listener = Listener.new(listener)
      @engine = Engines.fetch(suite["engine"]).new
      @pinning = Pinning.choose(enabled: suite["pin"])
      @schedule = Schedule.new(order: suite["order"], seed: suite["seed"] || Schedule.new_seed)
      @questions = questions
      @policy = RepeatPolicy.new(settings, questions: @questions)
      @window = Window.new(engine: @engine, supervisor: supervisor, pinning: @pinning)
    end

    def run
      reason = @engine.unavailable_reason
      raise ConfigError, "engine #{@engine.name}: #{reason}" if reason

      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      @run = open_run
      @listener.tell(:run_started, @run, plan)
      recorder = Recorder.new(plan, store: store, run_id: @run["id"], engine_name: @engine.name, listener: @listener)
      resumer = @resume && Resumer.new(@resume, recorder)
      resumer&.restore(warmup_s: suite["warmup_s"].to_f, listener: @listener)
      status = "interrupted"
      begin
        measure(recorder, resumer)
        status = "finished"
      ensure
        tear_down
        store.finish_run(@run["id"], status, ended_by: $ERROR_INFO) # what stopped the run: nil once finished
      end
      learn(recorder, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started) unless @resume
      @listener.tell(:run_finished, store.run(@run["id"]))
      @run["id"]
    end

    # What the run will cost, said before anything starts (RunEstimate):
    # from the pace and the starts of the results folder's latest runs here.
    def estimate
      @estimate ||= RunEstimate.new(plan, policy, schedule, boots: BootHistory.of(store), pace: RunPace.of(store),
                                                            load: MachineLoad.now)
    end

    private

    # A finished run's figures for the next runs' estimates (RunPace): the
    # starts each cell took, the wall time it took (taken_s) and the boots
    # it measured. A resumed run's wall time is not its plan's: it stores none.
    def learn(recorder, taken_s)
      starts_of = plan.cells.to_h { |c| [c.index, recorder.repeats(c).filter_map(&:deployment).max.to_i] }
      boots = plan.cells.group_by { |c| c.server_config["server"] }.transform_values do |cells|
        cells.flat_map { |c| recorder.repeats(c).filter_map { |r| r.resources&.dig("boot_s") } }
      end
      store.merge_settings(@run["id"], "estimate" => estimate.learned(starts_of, taken_s, boots: BootHistory.measured(boots)))
    end

    def open_run
      return store.reopen_run(@resume.id, suite: suite) if @resume

      store.create_run(suite: suite, settings: settings, machine: machine, pinning: pinning.to_h, plan: plan)
    end

    # The run's life once stored: its hosts (suites with hosts:, Hosts), its
    # services and the app's setup, the cells that cannot run here failed,
    # then the starts (Starts) and what the budget left undone.
    def measure(recorder, resumer)
      @fleet = Hosts::Fleet.start(suite, supervisor: supervisor, dir: @run["dir"])
      env = own_app.env(Apps.default_env(@run["dir"]).merge(start_services))
      own_app.setup!(supervisor, File.join(@run["dir"], "setup"), env, log_root: store.dir)
      dependencies = fail_unavailable(recorder)
      commands = AppCommands.new(suite, own_app: own_app, supervisor: supervisor, env: env, log_root: store.dir)
      @deployments = deployments(recorder, commands, env, resumer)
      @repeats = repeats(recorder, commands, dependencies)
      budget = Budget.new(suite["budget_s"])
      starts = Starts.new(plan, schedule: schedule, policy: policy, budget: budget, recorder: recorder,
                                deployments: @deployments, repeats: @repeats, resumer: resumer)
      starts.run
      store.merge_settings(@run["id"], "budget_spent_after_starts" => budget.spent_after) if budget.spent_after
      store.merge_settings(@run["id"], "ratio_stage_windows" => Starts::RATIO_STAGE_WINDOWS) if starts.ratio_stage_taken?
    end

    def deployments(recorder, commands, env, resumer)
      Deployments.new(suite, plan: plan, recorder: recorder, app_commands: commands, supervisor: supervisor, pinning: pinning,
                             run_dir: @run["dir"], window: @fleet ? @fleet.window(@window) : @window, env: env,
                             fleet: @fleet, log_root: store.dir, numbers: resumer ? resumer.deployment_numbers : {})
    end

    # duet: true measures the configs of a round at the same time (Duet),
    # only where every config runs on this machine.
    def repeats(recorder, commands, dependencies)
      warm_up = WarmUp.new(suite, engine: @engine, supervisor: supervisor, pinning: pinning, app_commands: commands)
      Repeats.new(suite, engine_name: @engine.name, schedule: schedule, recorder: recorder, deployments: @deployments,
                         warm_up: warm_up, dependencies: dependencies, duet: suite["duet"] && @fleet.nil?,
                         ratio: suite["ratio"] == "duet" && @fleet.nil?)
    end

    # Whatever the run got to: deployments, services, hosts, the processes
    # left, a duet's CPU groups.
    def tear_down
      @deployments&.retire_all
      @services&.each { |s| s.stop(supervisor) }
      @fleet&.close
      supervisor.stop_all
      @repeats&.close
    end

    # The suite's data plus what this run decided: the seed it drew, and how
    # auto stops (stored, so reports of older runs keep their own rule).
    def settings
      decided = %w[stopping equivalence_spending].to_h { |key| [key, suite[key] || Suite::KEYS.fetch(key).default] }
      decided["stopping_follows"] = @questions.to_s if @questions
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

    # Before anything is measured: each depends_on: entry names something
    # running (else the run stops), and cells whose server cannot run here
    # fail. Returns what the app depends on: the services rackbench started,
    # then the suite's depends_on: (Dependency).
    def fail_unavailable(recorder)
      dependencies = @services.map { |s| Dependency.running(s.name, s.children.map(&:pid)) } +
                     suite["depends_on"].to_a.map { |entry| Dependency.new(entry).tap(&:root_pids) }
      plan.groups.each do |group|
        server = Runner.server_for(group)
        why = server.class.unavailable_reason_in(app_bundle(group.server_config)) || server.proxy_class&.unavailable_reason
        group.cells.each { |cell| recorder.fail(cell, "#{server.name} cannot run here: #{why}") } if why
      end
      dependencies
    end

    # The app's own bundle (AppBundle), asked once per app; nil for a bundled app.
    def app_bundle(server_config)
      key = [suite.app_path(*server_config["app"]), server_config.dig("env", "BUNDLE_GEMFILE")]
      (@app_bundles ||= {}).fetch(key) { @app_bundles[key] = AppBundle.for(key[0], gemfile: key[1]) }
    end
  end
end
