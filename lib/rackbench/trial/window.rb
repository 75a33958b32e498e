# frozen_string_literal: true

require "time"
require_relative "empty_window"
require_relative "starved_engine"

module Rackbench
  # One measured load window on a running deployment: drain, then the engine
  # run while the Sampler reads the server tree and Noise reads the rest of
  # the machine. Returns the pieces of a Measurement::Repeat; stores nothing.
  # Created by the Runner for every repeat (and usable by anything that needs
  # one measured window: tune, probes).
  #
  #   window = Window.new(engine: engine, supervisor: supervisor, pinning: pinning)
  #   repeat = window.measure(deployment, load, dir: cell_dir, drain: drain, service_pids: [])
  class Window
    # A window in which nothing completed while other processes held at least
    # this share of the measured CPUs, or while the server or the engine
    # waited for a CPU half the window's length (EmptyWindow#starved?),
    # measured the machine's other work, not the server (a server pinned to a
    # CPU that others saturate can go seconds without running): it is
    # measured once more, after the drain (twice if starved again: at load 50
    # one retry was starved too), and the repeat's noise record keeps what
    # they held in the first ("starved_other_cpu_share"). Nothing completing
    # then is the server's result. So is a window in which
    # requests completed while the engine was kept off its CPU
    # (StarvedEngine): measured once more, its first wait kept
    # ("starved_engine_wait_s").
    STARVED_SHARE = 0.9
    AGAIN = 2 # starved windows measured again at most this many times in a row

    # One engine run with what was read beside it.
    Run = Struct.new(:result, :noise, :samples, :used, :drain_s, :started_us, :measured_from_s, keyword_init: true)

    attr_reader :engine

    # starved_share: of the measured CPUs held by others; starved_wait_share:
    # of the window's length the server or the engine waited for a CPU.
    def initialize(engine:, supervisor:, pinning:, starved_share: STARVED_SHARE,
                   starved_wait_share: EmptyWindow::STARVED_WAIT_SHARE)
      @engine = engine
      @supervisor = supervisor
      @pinning = pinning
      @starved_share = starved_share
      @starved_wait_share = starved_wait_share
    end

    # Raises ServiceError when the server died, stalled or never drained.
    # neighbours: pids of deployments running beside this one (Drain).
    # probe_dir: where the deployment's Probe writes (explain: true); its
    # records of the measured window go into the repeat's resources["explain"].
    # dependencies: what the app depends on (Dependency: its services, its
    # database), sampled beside the server into resources["dependencies"].
    # partners: pids of servers loaded at the same time on purpose (a duet):
    # the drain does not wait for them, and their CPU is not another process's.
    # start_line: a StartLine the duet's windows wait at, just before their loads begin.
    def measure(deployment, load, dir:, drain: nil, dependencies: [], neighbours: [], log_name: nil, probe_dir: nil,
                partners: [], start_line: nil)
      log_name ||= "#{@engine.name}.out"
      around = { dir: dir, drain: drain, dependencies: dependencies, neighbours: neighbours, partners: partners,
                 start_line: start_line }
      boot = deployment.boot_samples # the deployment's first window: its memory from the server's start
      boot_s = deployment.take_boot_s
      run = measured_again(deployment, load, around, log_name, run_once(deployment, load, around, log_name))
      check!(deployment, run)
      repeat(deployment, run, boot, probe_dir).tap { |r| r.resources["boot_s"] = boot_s if boot_s }
    end

    private

    # A starved window (#starved?) measured again, up to AGAIN times while
    # it stays starved; the repeat keeps what the first one's others held.
    # A duet's window (partners) that counted requests is kept instead,
    # marked "starved_in_duet": measured again alone, its server would have
    # the CPU to itself, which is no duet's window, and a ratio leaves such
    # rounds out (Comparison). One that counted nothing is measured again
    # all the same, and marked too.
    def measured_again(deployment, load, around, log_name, run)
      first = run
      duet = !around[:partners].empty?
      AGAIN.times do |i|
        break unless starved?(deployment, run, load)
        break run.noise["starved_in_duet"] = true if duet && run.result.requests.to_i.positive?

        run = run_once(deployment, load, around, "again#{i + 1 if i.positive?}-#{log_name}")
        run.noise["starved_in_duet"] = true if duet
      end
      return run if run.equal?(first)

      run.noise["starved_other_cpu_share"] = first.noise["other_cpu_share"]
      run.noise["starved_engine_wait_s"] = starved_engine(first, load).wait_s if first.result.requests.to_i.positive?
      run
    end

    # around: the window's dir, drain, dependencies and neighbours (#measure).
    def run_once(deployment, load, around, log_name)
      drain = around[:drain]
      drain_s = drain&.wait(neighbours: around[:neighbours])
      deps = DependencySampler.new(around[:dependencies]).start
      noise = Noise.new(cpus: measured_cpus).start
      sampler = deployment.sampler.start
      instant = around[:start_line]&.wait
      load = load.dup.tap { |l| l.start_at = instant } if instant && @engine.supports_start_at?
      started_us = Probe::Window.now_us
      begin
        result = @engine.run(load, supervisor: @supervisor, dir: around[:dir], cpus: @pinning.client_cpus, log_name: log_name)
      ensure
        samples = sampler.stop
        measured_from_s = @engine.warmup_in_run? ? load.warmup_s.to_f : 0
        used = deps.stop(from_s: measured_from_s)
      end
      server_cpu_s = samples.last.cpu_s - samples.first.cpu_s
      noise_h = noise.stop(known_cpu_s: server_cpu_s + deps.cpu_s, known_pids: deployment.pids + deps.pids,
                           partner_pids: around[:partners])
      noise_h["neighbours_cpu_share"] = drain&.neighbours_busy
      noise_h["idle_background_cpu_share"] = drain.background_share if drain&.background_share
      noise_h["load_started_us"] = started_us
      noise_h.merge!("start_at" => load.start_at, "start_late_s" => result.start_late_s) if load.start_at
      noise_h["start_line_at"] = instant if instant # the duet's instant, whatever the engine
      Run.new(result: result, noise: noise_h, samples: samples, used: used, drain_s: drain_s, started_us: started_us,
              measured_from_s: measured_from_s)
    end

    # Nothing completed though requests were due, the server is alive, and
    # other processes held the measured CPUs (or the server or the engine
    # waited for one most of the time); or requests completed while the
    # engine was kept off its CPU.
    def starved?(deployment, run, load)
      return false if deployment.dead_child
      return starved_engine(run, load).starved? if run.result.requests.to_i.positive?

      empty = empty(run)
      !empty.nothing_due? &&
        (run.noise["other_cpu_share"].to_f >= @starved_share || empty.starved?(share: @starved_wait_share))
    end

    def starved_engine(run, load)
      cpus = @pinning.client_cpus || Pinning.available_cpus
      length_s = run.result.duration_s.to_f + (@engine.warmup_in_run? ? load.warmup_s.to_f : 0)
      StarvedEngine.new(run.result, length_s: length_s, threads: load.threads, cpus: cpus.size, wait_share: @starved_wait_share)
    end

    def empty(run)
      first, last = run.samples.values_at(0, -1)
      wait_s = first.cpu_wait_s && last.cpu_wait_s && [last.cpu_wait_s - first.cpu_wait_s, 0].max
      EmptyWindow.new(run.result, run.noise, server_cpu_s: last.cpu_s - first.cpu_s, server_wait_s: wait_s)
    end

    def repeat(deployment, run, boot, probe_dir)
      samples = run.samples
      resources = Sampler.summarize(samples.select { |s| s.t_s >= run.measured_from_s })
      resources["dependencies"] = run.used unless run.used.empty?
      resources["explain"] = probe_window(deployment, probe_dir, run) if probe_dir
      resources["memory"] = deployment.worker_memory
      resources["memory_series"] = Sampler.memory_series(samples, boot: boot)
      Measurement::Repeat.new(result: run.result, noise: run.noise, drain_s: run.drain_s&.round(3), resources: resources,
                              started_at: Time.now.utc.iso8601(3))
    end

    # The probe's records from the engine's counted start to its end (load
    # from other hosts starts at the instant they agreed on, in this machine's
    # clock), once settled and, for a server on another host, fetched here.
    def probe_window(deployment, probe_dir, run)
      result = run.result
      started_us = result.hosts&.first&.fetch("started_at_us", nil) || run.started_us
      from_us = started_us + (run.measured_from_s * 1e6).to_i
      Probe::Window.read_settled(probe_dir, from_us: from_us, to_us: from_us + (result.duration_s.to_f * 1e6).to_i) do
        deployment.collect
      end
    end

    def measured_cpus
      @pinning.enabled? ? (@pinning.server_cpus + @pinning.client_cpus) : nil
    end

    # A dead server fails the window; so does one in which nothing
    # completed, unless nothing was due in it (EmptyWindow says which, and why).
    def check!(deployment, run)
      if (dead = deployment.dead_child)
        raise ServiceError.new(deployment.exit_reason(dead).exited("during the load"), log_tail: dead.log_tail)
      end
      return if run.result.requests.to_i.positive?

      empty = empty(run)
      raise empty.error unless empty.nothing_due?

      run.result.warnings << empty.warning
    end
  end
end
