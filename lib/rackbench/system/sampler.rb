# frozen_string_literal: true

module Rackbench
  # Samples a process tree from /proc while load runs: RSS and PSS (from
  # smaps_rollup: forked workers share copy-on-write pages, so PSS is the honest
  # total), CPU time (utime+stime of the live tree, plus cutime+cstime so
  # processes that exited during the window still count), the seconds its
  # threads waited for a CPU (run-queue delay, Procfs.run_queue_wait_s), and
  # the number of processes and threads.
  #
  #   sampler = Sampler.new(root_pids: [pid], interval_s: 0.5).start
  #   ... load ...
  #   samples = sampler.stop   # => [Sample, ...]
  class Sampler
    # worker_*: the mean of one worker process (the tree below the roots: Unicorn's
    # and clustered Puma's workers), or of the roots when nothing runs below them;
    # worker_uss_bytes: its private pages (nil where only PSS could be read);
    # worker_pids: which processes those were.
    # cpus: the CPUs the tree's processes last ran on. cpu_wait_s: the live
    # tree's threads' run-queue delay so far (a process gone between its stat
    # and its threads' counts is left out; nil where none can be read).
    Sample = Struct.new(:t_s, :rss_bytes, :pss_bytes, :cpu_s, :processes, :threads, :worker_rss_bytes,
                        :worker_pss_bytes, :worker_uss_bytes, :workers, :worker_pids, :cpus, :cpu_wait_s,
                        keyword_init: true)

    # The mean worker's memory over a window, a point per sample from the
    # window's start (its warm-up included): [[t_s, worker_pss_bytes,
    # worker_uss_bytes, worker_pids], ...], or nil when no sample read PSS.
    # Stored with each repeat (resources["memory_series"]). boot: the samples
    # of the deployment from its start (Deployment#boot_samples, the first
    # window only), put ahead at negative times from the window's start, from
    # the first in which all its workers existed (a cluster forks them after
    # its start): the series then shows what copy-on-write sharing loses
    # from the fork, through the checks and warm-up, to the end of the load.
    def self.memory_series(samples, boot: nil)
      boot = Array(boot).select(&:worker_pss_bytes)
      shift = boot.last&.t_s.to_f
      boot = boot.drop_while { |s| s.workers < boot.last.workers }
      points = boot.map { |s| [(s.t_s - shift).round(3), s.worker_pss_bytes, s.worker_uss_bytes, s.worker_pids] }
      points += samples.select(&:worker_pss_bytes).map { |s| [s.t_s, s.worker_pss_bytes, s.worker_uss_bytes, s.worker_pids] }
      points.empty? ? nil : points
    end

    def self.summarize(samples)
      return {} if samples.empty?

      first = samples.first
      last = samples.last
      elapsed = last.t_s - first.t_s
      {
        "rss_max_bytes" => samples.map(&:rss_bytes).max,
        "pss_max_bytes" => samples.map(&:pss_bytes).compact.max,
        "rss_mean_bytes" => (samples.sum(&:rss_bytes) / samples.size),
        "cpu_s" => (last.cpu_s - first.cpu_s).round(3),
        "cpu_percent" => elapsed.positive? ? ((last.cpu_s - first.cpu_s) / elapsed * 100).round(1) : nil,
        "cpu_wait_s" => wait_s(first, last),
        "sampled_s" => elapsed.round(3),
        "processes_max" => samples.map(&:processes).max,
        "threads_max" => samples.map(&:threads).max,
        "worker_rss_max_bytes" => samples.map(&:worker_rss_bytes).compact.max,
        "worker_pss_max_bytes" => samples.map(&:worker_pss_bytes).compact.max,
        "workers_max" => samples.map(&:workers).compact.max,
        "cpus_seen" => cpus_seen(samples)
      }.compact
    end

    # Seconds the tree's threads waited for a CPU between two samples (nil
    # where either could not read it; threads gone meanwhile take their waits
    # with them, so it is a floor).
    def self.wait_s(first, last)
      return nil unless first.cpu_wait_s && last.cpu_wait_s

      [last.cpu_wait_s - first.cpu_wait_s, 0.0].max.round(3)
    end

    # The CPUs the tree ran on over the samples, or nil when none said.
    def self.cpus_seen(samples)
      seen = samples.flat_map { |s| s.cpus.to_a }.uniq.sort
      seen.empty? ? nil : seen
    end

    def initialize(root_pids:, interval_s: 0.5, proc_dir: Procfs::DIR)
      @root_pids = root_pids
      @interval_s = interval_s
      @proc = proc_dir
      @samples = []
      @started = now
    end

    # Samples every interval_s until #stop, which wakes the sampling thread
    # at once (a plain sleep kept every window's end waiting up to one
    # interval: 0.47 s a window on average, as long again as a 0.5 s window).
    def start
      @running = true
      @lock = Mutex.new
      @stopping = ConditionVariable.new
      @thread = Thread.new do
        loop do
          take
          running = @lock.synchronize do
            @stopping.wait(@lock, @interval_s) if @running
            @running
          end
          break unless running
        end
      end
      self
    end

    def stop
      @lock&.synchronize do
        @running = false
        @stopping.signal
      end
      @thread&.join
      take
      @samples
    end

    # One sample of the whole tree under the root pids, right now. A
    # process's RSS, PSS and USS come from one read of smaps_rollup when it
    # has them (its stat's RSS, read earlier, could be smaller than a PSS read
    # after the process grew); stat's RSS is the fallback.
    def take
      stats = tree_stats.map { |stat| process_figures(stat) }
      workers = stats.reject { |s| @root_pids.include?(s[:pid]) }
      workers = stats if workers.empty?
      sample = Sample.new(
        t_s: (now - @started).round(3),
        rss_bytes: stats.sum { |s| s[:rss_bytes] },
        pss_bytes: sum_of_all(stats, :pss_bytes),
        cpu_s: stats.sum { |s| s[:cpu_s] },
        processes: stats.size,
        threads: stats.sum { |s| s[:threads] },
        cpus: stats.filter_map { |s| s[:processor] }.uniq.sort,
        cpu_wait_s: stats.filter_map { |s| s[:cpu_wait_s] }.then { |waits| waits.empty? ? nil : waits.sum },
        **worker_means(workers)
      )
      @samples << sample
      sample
    end

    # [seconds since the sampler was made, the tree's CPU seconds] now: its
    # stat lines only, not the memory and waits a Sample reads (Drain asks
    # twice per idle check, several checks per window).
    def cpu_reading = [now - @started, tree_stats.sum(&:cpu_s)]

    # [seconds since the sampler was made, the tree's CPU seconds, its
    # processes, its RSS bytes] from one read of the stat lines (Drain).
    def tree_reading
      stats = tree_stats
      [now - @started, stats.sum(&:cpu_s), stats.size, stats.sum(&:rss_bytes)]
    end

    # The roots and all their descendants (Procfs.tree_stats, else through each process's ppid).
    def tree_pids = tree_stats.map(&:pid)

    # The sockets the tree holds that do not listen (Procfs.held_connections):
    # Drain reads whether requests are still inside the server (HeldConnections keeps which sockets listen).
    def held_connections = (@held ||= HeldConnections.new(proc_dir: @proc)).count(tree_pids)

    # The roots and every process below them, given {ppid => [pid, ...]}.
    def self.descendants(roots, children)
      seen = []
      queue = roots.dup
      until queue.empty?
        pid = queue.shift
        next if seen.include?(pid)

        seen << pid
        queue.concat(children[pid])
      end
      seen
    end

    private

    # The Procfs::ProcessStat of the roots and of their descendants: the
    # tree's own files where the kernel lists children, else found through
    # every process's ppid.
    def tree_stats = Procfs.tree_stats(@root_pids, @proc) || tree_of(process_stats)

    def tree_of(all_stats)
      stats = all_stats.to_h { |stat| [stat.pid, stat] }
      children = Hash.new { |h, k| h[k] = [] }
      stats.each_value { |stat| children[stat.ppid] << stat.pid }
      self.class.descendants(@root_pids.select { |pid| stats.key?(pid) }, children).map { |pid| stats[pid] }
    end

    # Every process's stat, and one process's {"pss_bytes", "uss_bytes"} (RemoteSampler reads them on another host).
    def process_stats = Procfs.process_stats(@proc)
    def memory_bytes(pid) = Procfs.process_memory_bytes(pid, @proc)
    def cpu_wait_s(pid) = Procfs.run_queue_wait_s(pid, @proc)

    def process_figures(stat)
      memory = memory_bytes(stat.pid) || {}
      { pid: stat.pid, cpu_s: stat.cpu_s, threads: stat.threads, rss_bytes: memory["rss_bytes"] || stat.rss_bytes,
        pss_bytes: memory["pss_bytes"], uss_bytes: memory["uss_bytes"], processor: stat.processor,
        cpu_wait_s: cpu_wait_s(stat.pid) }
    end

    # The figure summed over the processes, or nil when one of them lacks it.
    def sum_of_all(stats, key) = stats.all? { |s| s[key] } ? stats.sum { |s| s[key] } : nil

    def worker_means(workers)
      return {} if workers.empty?

      pss = workers.map { |s| s[:pss_bytes] }
      uss = workers.map { |s| s[:uss_bytes] }
      { workers: workers.size, worker_pids: workers.map { |s| s[:pid] }.sort,
        worker_rss_bytes: workers.sum { |s| s[:rss_bytes] } / workers.size,
        worker_pss_bytes: pss.all? ? pss.sum / workers.size : nil, worker_uss_bytes: uss.all? ? uss.sum / workers.size : nil }
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
