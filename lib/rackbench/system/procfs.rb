# frozen_string_literal: true

module Rackbench
  # Readings of Linux's /proc that are not about one process tree: CPU time
  # per CPU (/proc/stat) and the load average. Used by Noise. Values in
  # seconds (USER_HZ ticks / CLOCK_TICKS).
  module Procfs
    CLOCK_TICKS = 100 # sysconf(_SC_CLK_TCK) on Linux

    # One CPU's cumulative time: busy (user, nice, system, irq, softirq),
    # steal (taken by the hypervisor) and total (everything, idle included).
    CpuTimes = Struct.new(:busy_s, :steal_s, :total_s, keyword_init: true) do
      def -(other)
        CpuTimes.new(busy_s: busy_s - other.busy_s, steal_s: steal_s - other.steal_s, total_s: total_s - other.total_s)
      end
    end

    module_function

    # {cpu_id => CpuTimes} for the given CPU ids (all when nil).
    def cpu_times(cpus = nil, proc_dir: "/proc")
      File.foreach("#{proc_dir}/stat").each_with_object({}) do |line, times|
        next unless (m = line.match(/\Acpu(\d+)\s+(.*)/))

        id = m[1].to_i
        next if cpus && !cpus.include?(id)

        user, nice, system, idle, iowait, irq, softirq, steal = m[2].split.map { |t| t.to_i.fdiv(CLOCK_TICKS) }
        steal ||= 0.0
        busy = user + nice + system + irq.to_f + softirq.to_f
        times[id] = CpuTimes.new(busy_s: busy, steal_s: steal, total_s: busy + idle + iowait.to_f + steal)
      end
    end

    # /proc/meminfo's figures in bytes: {"MemTotal" => ..., "SwapTotal" => ..., "SwapFree" => ...}.
    def meminfo_bytes(proc_dir: "/proc")
      File.foreach("#{proc_dir}/meminfo").each_with_object({}) do |line, info|
        name, kb = line.match(/\A(\w+):\s+(\d+) kB/)&.captures
        info[name] = kb.to_i * 1024 if name
      end
    rescue SystemCallError
      {}
    end

    # The 1-minute load average.
    def loadavg_1m(proc_dir: "/proc")
      File.read("#{proc_dir}/loadavg").split.first.to_f
    rescue SystemCallError
      nil
    end
  end
end
