# frozen_string_literal: true

require "time"

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
    attr_reader :engine

    def initialize(engine:, supervisor:, pinning:)
      @engine = engine
      @supervisor = supervisor
      @pinning = pinning
    end

    # Raises ServiceError when the server died, stalled or never drained.
    # neighbours: pids of deployments running beside this one (Drain).
    # probe_dir: where the deployment's Probe writes (explain: true); its
    # records of the measured window go into the repeat's resources["explain"].
    # dependencies: what the app depends on (Dependency: its services, its
    # database), sampled beside the server into resources["dependencies"].
    def measure(deployment, load, dir:, drain: nil, dependencies: [], neighbours: [], log_name: nil, probe_dir: nil)
      drain_s = drain&.wait(neighbours: neighbours)
      deps = DependencySampler.new(dependencies).start
      noise = Noise.new(cpus: measured_cpus).start
      boot = deployment.boot_samples # the deployment's first window: its memory from the server's start
      sampler = deployment.sampler.start
      started_us = Probe::Window.now_us
      begin
        result = @engine.run(load, supervisor: @supervisor, dir: dir, cpus: @pinning.client_cpus,
                                   log_name: log_name || "#{@engine.name}.out")
      ensure
        samples = sampler.stop
        measured_from_s = @engine.warmup_in_run? ? load.warmup_s.to_f : 0
        used = deps.stop(from_s: measured_from_s)
      end
      server_cpu_s = samples.last.cpu_s - samples.first.cpu_s
      noise_h = noise.stop(known_cpu_s: server_cpu_s + deps.cpu_s, known_pids: deployment.pids + deps.pids)
      noise_h["neighbours_cpu_share"] = drain&.neighbours_busy
      check!(deployment, result, noise_h["other_cpu_share"])
      resources = Sampler.summarize(samples.select { |s| s.t_s >= measured_from_s })
      resources["dependencies"] = used unless used.empty?
      resources["explain"] = probe_window(probe_dir, started_us, measured_from_s, result) if probe_dir
      resources["memory"] = WorkerMemory.new(root_pids: deployment.pids).snapshot if deployment.local?
      resources["memory_series"] = Sampler.memory_series(samples, boot: boot)
      Measurement::Repeat.new(result: result, noise: noise_h, drain_s: drain_s&.round(3), resources: resources,
                              started_at: Time.now.utc.iso8601(3))
    end

    private

    # The probe's records from the engine's counted start to its end (load
    # from other hosts starts at the instant they agreed on, in this machine's clock).
    def probe_window(probe_dir, started_us, measured_from_s, result)
      started_us = result.hosts&.first&.fetch("started_at_us", nil) || started_us
      from_us = started_us + (measured_from_s * 1e6).to_i
      Probe::Window.read_settled(probe_dir, from_us: from_us, to_us: from_us + (result.duration_s.to_f * 1e6).to_i)
    end

    def measured_cpus
      @pinning.enabled? ? (@pinning.server_cpus + @pinning.client_cpus) : nil
    end

    # other_cpu_share: what other processes took of the measured CPUs in the
    # window, named when nothing completed: a server starved of its CPU by
    # them looks like a stalled one.
    def check!(deployment, result, other_cpu_share)
      if (dead = deployment.dead_child)
        raise ServiceError.new(deployment.exit_reason(dead).exited("during the load"), log_tail: dead.log_tail)
      end
      return if result.requests.to_i.positive?

      others = other_cpu_share ? "; other processes used #{(other_cpu_share * 100).round} % of the measured CPUs" : ""
      raise ServiceError, "no request completed in the measured #{result.duration_s} s " \
                          "(#{result.error_count} errors#{others}): " \
                          "the server stalled, or the window is shorter than one response"
    end
  end
end
