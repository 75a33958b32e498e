# frozen_string_literal: true

module Rackbench
  # What else the machine did while one load window ran, on the CPUs that
  # matter (the server's and the load generator's when pinned, else all):
  # CPU time of processes that are neither the server (nor its services),
  # nor the load generator, nor rackbench itself; the hypervisor's steal; and
  # the load average. Created by Window around each repeat; its readings
  # become warnings (Measurement::Warnings) with advice.
  #
  #   noise = Noise.new(cpus: [0, 1]).start
  #   ... load ...
  #   noise.stop(known_cpu_s: server_and_services_cpu_s)  # => Hash
  class Noise
    def initialize(cpus: nil, proc_dir: Procfs::DIR)
      @cpus = cpus
      @proc_dir = proc_dir
    end

    def start
      @started = now
      @cpu = Procfs.cpu_times(@cpus, proc_dir: @proc_dir)
      @times = Process.times
      self
    end

    # known_cpu_s: CPU seconds the server tree and services used meanwhile.
    # The load generator is rackbench's child, so it shows in Process.times'
    # children's time once reaped; rackbench's own time is subtracted too.
    def stop(known_cpu_s:)
      window_s = now - @started
      delta = Procfs.cpu_times(@cpus, proc_dir: @proc_dir).filter_map { |id, t| @cpu[id] && (t - @cpu[id]) }
      times = Process.times
      engine_cpu_s = (times.cutime + times.cstime) - (@times.cutime + @times.cstime)
      own_cpu_s = (times.utime + times.stime) - (@times.utime + @times.stime)
      busy_s = delta.sum(&:busy_s)
      total_s = delta.sum(&:total_s)
      other_s = [busy_s - known_cpu_s.to_f - engine_cpu_s - own_cpu_s, 0.0].max
      {
        "window_s" => window_s.round(3), "cpus" => @cpus, "busy_cpu_s" => busy_s.round(3),
        "known_cpu_s" => known_cpu_s.to_f.round(3), "engine_cpu_s" => engine_cpu_s.round(3),
        "own_cpu_s" => own_cpu_s.round(3), "other_cpu_s" => other_s.round(3),
        "other_cpu_share" => total_s.positive? ? (other_s / total_s).round(4) : nil,
        "steal_share" => total_s.positive? ? (delta.sum(&:steal_s) / total_s).round(4) : nil,
        "loadavg_1m" => Procfs.loadavg_1m(proc_dir: @proc_dir)
      }
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
