# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Drain
    # A clock the test moves by hand.
    class DeadlineTest < Minitest::Test
      def setup
        @now = 100.0
      end

      def deadline = Drain::Deadline.new(30, 120, clock: -> { @now })

      def test_it_passes_timeout_s_after_the_wait_began
        d = deadline
        d.processes(5)
        @now += 29
        refute d.passed?
        @now += 2
        d.processes(5)
        assert d.passed?
        assert_equal "30 s", d.within_text
      end

      def test_a_new_process_moves_it_to_timeout_s_after_it
        d = deadline
        d.processes(42)
        @now += 25
        d.processes(60)
        @now += 29
        refute d.passed?
        assert_in_delta 1.0, d.left_s, 1e-9
        @now += 2
        assert d.passed?
        assert_equal "56 s (it started processes meanwhile: 42 -> 60)", d.within_text
      end

      def test_it_tells_a_process_started_within_the_last_seconds
        d = deadline
        d.processes(1)
        refute d.starting_within?(1.0), "the first count is no start"
        @now += 0.5
        d.processes(2)
        @now += 0.9
        assert d.starting_within?(1.0)
        @now += 0.2
        refute d.starting_within?(1.0)
      end

      def test_more_processes_than_when_last_seen_is_a_start
        d = Drain::Deadline.new(30, 120, processes: 3, clock: -> { @now })
        @now += 10
        d.processes(4)
        assert d.starting_within?(1.0)
        @now += 25
        refute d.passed?, "moved to 30 s after the start"
      end

      def test_a_server_that_keeps_starting_processes_is_not_waited_for_past_the_cap
        d = deadline
        (1..20).each do |count|
          d.processes(count)
          @now += 10
        end
        assert d.passed?, "120 s at most"
      end

      def test_a_process_that_ends_and_is_replaced_does_not_move_it
        d = deadline
        d.processes(101)
        @now += 20
        d.processes(100)
        d.processes(101)
        @now += 11
        assert d.passed?
      end

      def test_unknown_processes_leave_it_fixed
        d = deadline
        d.processes(nil)
        @now += 31
        assert d.passed?
        assert_equal "30 s", d.within_text
      end
    end
  end
end
