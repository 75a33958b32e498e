# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Hosts
    # The clock offset estimator on a fake connection whose host is 2 s ahead
    # and whose answers take known times: the estimate is within half the
    # shortest round trip, which it reports as its uncertainty.
    class ClockTest < Minitest::Test
      # Answers `date +%s%N` with its clock (2 s ahead) read after `out_s`, then waits `back_s`.
      class FakeHost
        def initialize(delays)
          @delays = delays
        end

        def capture(_command)
          out_s, back_s = @delays.shift
          sleep out_s
          now = Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond) + 2_000_000_000
          sleep back_s
          now.to_s
        end
      end

      def test_the_offset_comes_from_the_shortest_round_trip_and_is_within_half_of_it
        # one slow, lopsided round trip (0.2 s out, nothing back) and four short ones
        delays = [[0.2, 0.0], [0.002, 0.002], [0.003, 0.001], [0.002, 0.003], [0.004, 0.002]]
        clock = Clock.offset(FakeHost.new(delays))

        assert_operator clock["round_trip_s"], :<, 0.2, "the slow try is not the one kept"
        assert_in_delta clock["round_trip_s"] / 2, clock["uncertainty_s"], 1e-6
        assert_in_delta 2.0, clock["offset_s"], clock["uncertainty_s"] + 1e-6
      end

      def test_the_queue_correction_is_the_load_hosts_offset_less_the_servers
        assert_equal 1_500, Clock.queue_correction_us({ "offset_s" => 0.0025 }, { "offset_s" => 0.001 })
        assert_equal(-2_000, Clock.queue_correction_us({ "offset_s" => -0.002 }, nil), "a server on this machine")
      end
    end
  end
end
