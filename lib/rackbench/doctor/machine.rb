# frozen_string_literal: true

require "tmpdir"

module Rackbench
  module Doctor
    # The facts about this machine that doctor's checks read, captured once
    # (tests build one from fixture folders or values):
    #
    #   machine = Machine.capture(results_dir: "rackbench-results")
    #   machine.cpus               # [0, 1]: the CPUs rackbench may use
    #   machine.swap_used_bytes    # 0
    #   machine.governors          # {0 => "performance"}; {} when the kernel shows no cpufreq (a VM)
    #   machine.turbo              # true, false or nil (unknown)
    #   machine.results_free_bytes, machine.results_size_bytes, machine.results_rotational
    Machine = Struct.new(:cpus, :taskset, :swap_used_bytes, :governors, :turbo, :yjit_available, :results_dir,
                         :results_free_bytes, :results_size_bytes, :results_rotational, keyword_init: true) do
      def self.capture(results_dir:, proc_dir: "/proc", sys_dir: "/sys", supervisor: Supervisor.new)
        cpus = Pinning.available_cpus
        meminfo = Procfs.meminfo_bytes(proc_dir: proc_dir)
        size, free = Machine.disk_bytes(results_dir, supervisor)
        new(cpus: cpus, taskset: Executable.available?("taskset"),
            swap_used_bytes: meminfo["SwapTotal"] && (meminfo["SwapTotal"] - meminfo.fetch("SwapFree", 0)),
            governors: Machine.governors(cpus, sys_dir), turbo: Machine.turbo(sys_dir),
            yjit_available: Servers::Base.yjit_available?, results_dir: results_dir,
            results_free_bytes: free, results_size_bytes: size, results_rotational: Machine.rotational(results_dir, sys_dir))
      end

      # {cpu => scaling governor} of the CPUs that have cpufreq.
      def self.governors(cpus, sys_dir)
        cpus.each_with_object({}) do |cpu, found|
          path = "#{sys_dir}/devices/system/cpu/cpu#{cpu}/cpufreq/scaling_governor"
          found[cpu] = File.read(path).strip if File.file?(path)
        end
      end

      # Turbo (intel_pstate's no_turbo, or cpufreq's boost) on, off, or nil when neither says.
      def self.turbo(sys_dir)
        no_turbo = "#{sys_dir}/devices/system/cpu/intel_pstate/no_turbo"
        boost = "#{sys_dir}/devices/system/cpu/cpufreq/boost"
        return File.read(no_turbo).strip == "0" if File.file?(no_turbo)

        File.file?(boost) ? File.read(boost).strip == "1" : nil
      end

      # Whether the results folder's block device spins (nil when it has none: tmpfs, overlay).
      def self.rotational(dir, sys_dir)
        stat = File.stat(Machine.existing(dir))
        device = "#{sys_dir}/dev/block/#{stat.dev_major}:#{stat.dev_minor}"
        return nil unless File.exist?(device)

        real = File.realpath(device)
        flag = [real, File.dirname(real)].map { |d| "#{d}/queue/rotational" }.find { |f| File.file?(f) }
        flag && File.read(flag).strip == "1"
      end

      # [size, free] bytes of the results folder's file system, from df -Pk; [nil, nil] when df cannot say.
      def self.disk_bytes(dir, supervisor)
        Dir.mktmpdir("rackbench-doctor") do |tmp|
          out, status, = supervisor.capture(["df", "-Pk", Machine.existing(dir)], name: "df", timeout_s: 10,
                                                                                  log_path: File.join(tmp, "df.log"))
          fields = status.success? ? out.lines.last.to_s.split : []
          fields.size >= 4 ? [fields[1].to_i * 1024, fields[3].to_i * 1024] : [nil, nil]
        end
      rescue ServiceError, SystemCallError
        [nil, nil]
      end

      # The folder, or its nearest ancestor that exists (the results folder may not yet).
      def self.existing(dir)
        path = File.expand_path(dir)
        path = File.dirname(path) until File.exist?(path)
        path
      end
    end
  end
end
