# frozen_string_literal: true

module Rackbench
  # Procfs's readings of the machine (loaded with procfs.rb): CPU time per
  # CPU from /proc/stat, the load average, the CPUs this process may run on,
  # and what Environment records (kernel, CPU model, memory).
  #
  #   before = Procfs.cpu_times([0, 1]) ... (Procfs.cpu_times([0, 1])[0] - before[0]).busy_share  # => 0.42
  module Procfs
    # One CPU's cumulative time: busy (user, nice, system, irq, softirq),
    # steal (taken by the hypervisor) and total (everything, idle and iowait
    # included).
    CpuTimes = Struct.new(:busy_s, :steal_s, :total_s, keyword_init: true) do
      def -(other)
        CpuTimes.new(busy_s: busy_s - other.busy_s, steal_s: steal_s - other.steal_s, total_s: total_s - other.total_s)
      end

      # The share of the time that was busy (of a difference of two readings).
      def busy_share = total_s.positive? ? busy_s / total_s : nil
    end

    module_function

    # {cpu_id => CpuTimes} for the given CPU ids (all when nil).
    def cpu_times(cpus = nil, proc_dir: DIR)
      File.foreach("#{proc_dir}/stat").each_with_object({}) do |line, times|
        next unless (m = line.match(/\Acpu(\d+)\s/))

        id = m[1].to_i
        times[id] = parse_cpu_line(line) unless cpus && !cpus.include?(id)
      end
    end

    # The CpuTimes of one "cpu..." line of /proc/stat (the first, "cpu ", sums all CPUs):
    # cpuN user nice system idle iowait irq softirq steal ...
    def parse_cpu_line(line)
      ticks = (line.split.drop(1).map(&:to_i) + ([0] * 8)).first(8)
      user, nice, system, idle, iowait, irq, softirq, steal = ticks.map { |t| t.fdiv(CLOCK_TICKS) }
      busy = user + nice + system + irq + softirq
      CpuTimes.new(busy_s: busy, steal_s: steal, total_s: busy + idle + iowait + steal)
    end

    # The 1-minute load average.
    def loadavg_1m(proc_dir: DIR) = loadavgs(proc_dir: proc_dir)&.first

    # The 1-, 5- and 15-minute load averages, or nil.
    def loadavgs(proc_dir: DIR)
      text = read("#{proc_dir}/loadavg")
      text && text.split.first(3).map(&:to_f)
    end

    # The CPU ids this process (or pid) may run on (an outer taskset or
    # cgroup narrows them), or nil when the kernel does not say.
    def allowed_cpus(pid = "self", proc_dir: DIR)
      list = read("#{proc_dir}/#{pid}/status").to_s[/^Cpus_allowed_list:\s*(\S+)/, 1]
      list&.split(",")&.flat_map do |range|
        first, last = range.split("-").map(&:to_i)
        (first..(last || first)).to_a
      end
    end

    def kernel_release(proc_dir: DIR) = read("#{proc_dir}/sys/kernel/osrelease")&.strip
    def cpu_model(proc_dir: DIR) = read("#{proc_dir}/cpuinfo").to_s[/^model name\s*:\s*(.+)$/, 1]

    # /proc/meminfo's figures in bytes: {"MemTotal" => ..., "SwapTotal" => ..., "SwapFree" => ...}.
    def meminfo_bytes(proc_dir: DIR)
      read("#{proc_dir}/meminfo").to_s.each_line.with_object({}) do |line, info|
        name, kb = line.match(/\A(\w+):\s+(\d+) kB/)&.captures
        info[name] = kb.to_i * 1024 if name
      end
    end

    def memory_bytes(proc_dir: DIR)
      kb = read("#{proc_dir}/meminfo").to_s[/^MemTotal:\s+(\d+)/, 1]
      kb && (kb.to_i * 1024)
    end
  end
end
