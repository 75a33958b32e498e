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
  #   noise.stop(known_cpu_s: server_and_dependencies_cpu_s, known_pids: their_pids)  # => Hash
  #
  # "other_busiest" names the busiest processes that are none of these (nor
  # below them, nor below rackbench), so a warning can say what is foreign.
  class Noise
    BUSIEST = 3
    BUSIEST_MIN_SHARE = 0.01 # of one CPU over the window

    def initialize(cpus: nil, proc_dir: Procfs::DIR)
      @cpus = cpus
      @proc_dir = proc_dir
    end

    def start
      @started = now
      @cpu = Procfs.cpu_times(@cpus, proc_dir: @proc_dir)
      @times = Process.times
      @processes = Procfs.process_stats(@proc_dir).to_h { |stat| [stat.pid, stat] }
      self
    end

    # known_cpu_s: CPU seconds the server tree and the app's dependencies
    # used meanwhile; known_pids: their pids. The load generator is
    # rackbench's child, so it shows in Process.times' children's time once
    # reaped; rackbench's own time is subtracted too.
    # busiest: how many of the other processes to name. partner_pids: the
    # trees of servers loaded at the same time on purpose (a duet): their CPU
    # is known too, not another process's.
    def stop(known_cpu_s:, known_pids: [], busiest: BUSIEST, partner_pids: [])
      known_cpu_s = known_cpu_s.to_f + tree_cpu_s(partner_pids) unless partner_pids.empty?
      known_pids += partner_pids
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
        "loadavg_1m" => Procfs.loadavg_1m(proc_dir: @proc_dir),
        "other_busiest" => busiest(known_pids, window_s, busiest)
      }
    end

    private

    # [{"command", "pid", "cpu_percent"}] of the busiest processes that are
    # not known, not below a known one and not below rackbench.
    def busiest(known_pids, window_s, count)
      stats = Procfs.process_stats(@proc_dir)
      children = Hash.new { |h, k| h[k] = [] }
      stats.each { |stat| children[stat.ppid] << stat.pid }
      ours = Sampler.descendants(known_pids + [Process.pid], children)
      used = stats.filter_map do |stat|
        before = @processes[stat.pid]
        next if ours.include?(stat.pid) || before.nil? || before.start_ticks != stat.start_ticks

        [stat, stat.cpu_s - before.cpu_s]
      end
      used.select { |_, cpu_s| cpu_s > BUSIEST_MIN_SHARE * window_s }.max_by(count) { |_, cpu_s| cpu_s }.map do |stat, cpu_s|
        { "command" => stat.comm, "pid" => stat.pid, "cpu_percent" => (cpu_s / window_s * 100).round(1) }
      end
    end

    # CPU seconds the trees of pids used since #start (a process started since counts whole).
    def tree_cpu_s(pids)
      stats = Procfs.process_stats(@proc_dir).to_h { |stat| [stat.pid, stat] }
      children = Hash.new { |h, k| h[k] = [] }
      stats.each_value { |stat| children[stat.ppid] << stat.pid }
      Sampler.descendants(pids.select { |pid| stats.key?(pid) }, children).sum do |pid|
        before = @processes[pid]
        stat = stats[pid]
        before && before.start_ticks == stat.start_ticks ? stat.cpu_s - before.cpu_s : stat.cpu_s
      end
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
