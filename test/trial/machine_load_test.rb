# frozen_string_literal: true

require "test_helper"

module Rackbench
  # How busy the machine is as a run is planned: its load average per CPU,
  # from quiet (0) to busy (1).
  class MachineLoadTest < Minitest::Test
    def load_from(text, cpus: 2)
      dir = File.join(tmpdir, "proc")
      FileUtils.mkdir_p(dir)
      File.write(File.join(dir, "loadavg"), text)
      MachineLoad.now(proc_dir: dir, cpus: cpus)
    end

    def test_the_larger_of_the_one_and_five_minute_load_averages_is_read
      assert_in_delta 9.5, load_from("3.10 9.50 20.00 2/300 123\n").load, 1e-9
      assert_in_delta 7.2, load_from("7.20 1.50 0.90 2/300 123\n").load, 1e-9
      assert_equal "load 7.2 on 2 CPUs", load_from("7.20 1.50 0.90 2/300 123\n").to_s
    end

    def test_a_machine_is_quiet_up_to_two_a_cpu_busy_from_five_and_in_between_on_a_line
      share = ->(load, cpus) { MachineLoad.new(load: load, cpus: cpus).busy_share }
      assert_in_delta 0.0, share.call(3.9, 2), 1e-9
      assert_in_delta 0.5, share.call(7.0, 2), 1e-9
      assert_in_delta 1.0, share.call(10.0, 2), 1e-9
      assert_in_delta 1.0, share.call(45.0, 2), 1e-9
      assert_in_delta 0.5, share.call(14.0, 4), 1e-9, "per CPU"
    end

    def test_a_run_stores_the_load_it_was_planned_at_and_reads_it_back
      load = MachineLoad.from_h(MachineLoad.new(load: 7.0, cpus: 2).to_h)
      assert_equal [7.0, 2], [load.load, load.cpus]
      assert_in_delta 0.5, load.busy_share, 1e-9
    end

    def test_a_machine_whose_load_is_not_known_is_taken_as_quiet
      load = MachineLoad.now(proc_dir: File.join(tmpdir, "none"), cpus: 2)
      assert_nil load.load
      assert_in_delta 0.0, load.busy_share, 1e-9
      assert_equal "load unknown", load.to_s
    end
  end
end
