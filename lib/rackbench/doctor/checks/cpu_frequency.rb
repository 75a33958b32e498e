# frozen_string_literal: true

module Rackbench
  module Doctor
    # A CPU whose frequency moves (a governor other than performance, turbo)
    # or whose state cannot be read: runs differ by more than the servers do.
    class CpuFrequency < Check
      NAME = "cpu_frequency"
      WHERE = "this machine (/sys/devices/system/cpu)"

      def findings
        cpus = server_cpus + machine.cpus.last(1)
        governors = machine.governors.slice(*cpus)
        return [unknown] if governors.empty?

        scaling = governors.reject { |_, g| g == "performance" }
        found = scaling.group_by(&:last).map do |governor, list|
          note("CPU #{list.map(&:first).join(",")} scale(s) their frequency (governor #{governor})",
               where: WHERE, fix: "cpupower frequency-set -g performance")
        end
        found + turbo
      end

      private

      def unknown
        note("CPU frequency scaling and turbo state unknown: the kernel shows no cpufreq (a VM: the host decides)",
             where: WHERE, fix: "compare runs made on one host, and repeat them (see the CIs)")
      end

      def turbo
        case machine.turbo
        when true
          [note("turbo is on: the frequency follows temperature and load",
                where: WHERE, fix: "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (or 0 > cpufreq/boost)")]
        when nil
          [note("turbo state unknown", where: WHERE, fix: "check the BIOS or the host; compare runs made on one host")]
        else []
        end
      end
    end

    register("cpu_frequency", CpuFrequency)
  end
end
