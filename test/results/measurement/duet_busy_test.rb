# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Measurement
    # A duet's server must be runnable (on a CPU or waiting for one) nearly
    # all of its windows for the ratio to be one of costs: one that idled
    # gets a warning with its median busy share; windows loaded alone, or
    # sampled before the wait was recorded, say nothing.
    class DuetBusyTest < Minitest::Test
      def repeat(cpu_s:, wait_s:, duet: true, deployment: 1)
        result = Result.new(engine: "native", requests: 1000, duration_s: 2.0, requests_per_s: 500.0,
                            histogram: [[1000, 1000]])
        resources = { "cpu_s" => cpu_s, "cpu_wait_s" => wait_s, "sampled_s" => 2.0 }.compact
        Repeat.new(index: deployment, deployment: deployment, result: result, resources: resources,
                   noise: duet ? { "duet" => "cgroup v1 cpu.shares" } : {})
      end

      def warning(repeats) = DuetBusy.warning(Measurement.new({ "label" => "puma", "status" => "ok" }, repeats))

      def test_a_server_busy_all_its_duet_windows_gets_no_warning
        assert_nil warning([repeat(cpu_s: 1.0, wait_s: 0.98), repeat(cpu_s: 0.9, wait_s: 1.1, deployment: 2)])
      end

      def test_a_server_that_idled_in_its_duet_windows_is_warned_with_its_median_busy_share
        said = warning([repeat(cpu_s: 0.5, wait_s: 0.5), repeat(cpu_s: 0.6, wait_s: 0.4, deployment: 2),
                        repeat(cpu_s: 1.0, wait_s: 1.0, deployment: 3)])
        assert_equal "duet", said.kind
        assert_in_delta 0.5, said.value
        assert_equal "in its duet windows the server was busy (on a CPU or waiting for one) 50 % of the time " \
                     "(median of 3), under the 90 % a duet needs", said.message
        assert_match "--no-duet", said.advice
      end

      def test_windows_loaded_alone_or_without_a_recorded_wait_say_nothing
        assert_nil warning([repeat(cpu_s: 0.2, wait_s: 0.0, duet: false)])
        assert_nil warning([repeat(cpu_s: 0.2, wait_s: nil)])
      end

      def test_it_is_among_the_measurements_warnings
        idle = Measurement.new({ "label" => "puma", "status" => "ok" }, [repeat(cpu_s: 0.3, wait_s: 0.1)])
        assert_includes idle.warnings.map(&:kind), "duet"
      end
    end
  end
end
