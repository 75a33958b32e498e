# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    # Machine.capture reads /proc and /sys: here, folders laid out like them.
    class MachineTest < Minitest::Test
      include TestHelpers

      def write(path, text)
        FileUtils.mkdir_p(File.dirname(path))
        File.write(path, text)
      end

      def capture
        write("#{tmpdir}/proc/meminfo", "MemTotal: 2048000 kB\nSwapTotal: 1024000 kB\nSwapFree: 1000000 kB\n")
        write("#{tmpdir}/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n")
        write("#{tmpdir}/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n")
        Machine.capture(results_dir: tmpdir, proc_dir: "#{tmpdir}/proc", sys_dir: "#{tmpdir}/sys")
      end

      def test_swap_in_use_is_swap_total_less_swap_free
        assert_equal 24_000 * 1024, capture.swap_used_bytes
      end

      def test_governors_and_turbo_come_from_sys
        machine = capture

        assert_equal "powersave", machine.governors[0]
        assert machine.turbo
      end

      def test_the_results_folder_disk_has_a_size_and_free_space_from_df
        machine = capture

        assert_operator machine.results_size_bytes, :>, 0
        assert_operator machine.results_free_bytes, :<=, machine.results_size_bytes
        assert_nothing_left
      end
    end
  end
end
