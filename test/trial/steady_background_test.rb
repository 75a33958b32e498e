# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Checks a quarter second apart, as Drain takes them on a loaded machine.
  class SteadyBackgroundTest < Minitest::Test
    def judge(shares, held: [0] * shares.size, prompt: [true] * shares.size, held_idle: 0,
              processes: [101] * shares.size, rss_mb: [2000] * shares.size)
      judge = SteadyBackground.new(held_idle: held_idle)
      cpu_s = 0.0
      shares.each_with_index do |share, i|
        cpu_s += share * 0.25
        judge << SteadyBackground::Check.new(t_s: i * 0.25, cpu_s: cpu_s, processes: processes[i],
                                             rss_bytes: rss_mb[i] * 1_000_000, held: held[i], prompt: prompt[i])
      end
      judge
    end

    def test_a_server_keeping_a_steady_share_with_no_connection_is_idle_with_background_work
      assert_in_delta 0.4, judge([0.4] * 14).share, 0.001
    end

    def test_fewer_than_the_steady_seconds_do_not_show_it
      assert_nil judge([0.4] * 12).share
    end

    def test_a_share_that_falls_is_leftover_work_ending
      assert_nil judge(([0.8] * 7) + ([0.3] * 7)).share
    end

    def test_a_share_that_rises_is_steady_enough
      assert_in_delta 0.6, judge(([0.4] * 7) + ([0.6] * 7)).share, 0.001
    end

    def test_a_connection_more_than_the_idle_server_held_is_a_request_inside
      assert_nil judge([0.4] * 14, held: [1] * 14).share
    end

    def test_connections_that_move_are_requests_coming_and_going
      assert_nil judge([0.4] * 14, held: ([1] * 7) + ([0] * 7), held_idle: 1).share
    end

    def test_the_idle_servers_own_connections_are_not_requests
      assert_in_delta 0.4, judge([0.4] * 14, held: [2] * 14, held_idle: 2).share, 0.001
    end

    def test_a_server_still_starting_processes_is_not_idle
      assert_nil judge([0.4] * 14, processes: (88..101).to_a).share
    end

    def test_a_server_whose_memory_grows_is_still_loading
      assert_nil judge([0.4] * 14, rss_mb: (0...14).map { |i| 2000 + (i * 10) }).share
    end

    def test_memory_that_wanders_a_little_is_steady
      assert_in_delta 0.4, judge([0.4] * 14, rss_mb: (0...14).map { |i| 2000 + (i.even? ? 5 : -5) }).share, 0.001
    end

    def test_a_slow_probe_in_the_last_seconds_keeps_it_waiting
      assert_nil judge([0.4] * 14, prompt: ([true] * 13) + [false]).share
    end

    def test_a_slow_probe_before_the_last_seconds_is_forgotten
      assert_in_delta 0.4, judge([0.4] * 16, prompt: [false] + ([true] * 15)).share, 0.001
    end

    def test_connections_it_cannot_read_leave_it_to_the_idle_cpu
      assert_nil judge([0.4] * 14, held: [nil] * 14).share
      assert_nil judge([0.4] * 14, held_idle: nil).share
    end
  end
end
