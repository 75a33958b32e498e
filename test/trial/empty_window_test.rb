# frozen_string_literal: true

require "test_helper"
require "rackbench/trial/empty_window"

module Rackbench
  # What an empty closed-loop window's failure says, from known figures: the
  # server's and the engine's waits for a CPU tell a starved window (one of
  # them waited half the window's length or more) from a stalled server
  # (neither did).
  class EmptyWindowTest < Minitest::Test
    def result(engine_wait_s: 0.02)
      Result.new(requests: 0, duration_s: 1.0, schedule: { "mode" => "closed" },
                 window_requests: { "total" => 0, "in_flight" => 4 }, client_cpu: { "wait_s" => engine_wait_s })
    end

    def empty(server_wait_s:, engine_wait_s: 0.02)
      EmptyWindow.new(result(engine_wait_s: engine_wait_s), { "other_cpu_share" => 0.4 }, server_cpu_s: 0.01,
                                                                                          server_wait_s: server_wait_s)
    end

    def test_a_server_that_waited_half_the_window_or_more_for_a_cpu_was_starved
      starved = empty(server_wait_s: 1.2)
      assert starved.starved?
      assert_match(/the server used 0\.01 s of CPU and waited 1\.20 s for one, the engine waited 0\.02 s for a CPU\z/,
                   starved.error.message)
    end

    def test_an_engine_that_waited_half_the_window_or_more_for_a_cpu_starved_the_window
      assert empty(server_wait_s: 0.0, engine_wait_s: 0.5).starved?
    end

    def test_a_server_that_hardly_waited_stalled_on_its_own
      stalled = empty(server_wait_s: 0.05, engine_wait_s: 0.49)
      refute stalled.starved?
      assert_match(/\Ano request completed in the measured 1\.0 s \(0 errors; other processes used 40 % of the measured CPUs\): /,
                   stalled.error.message)
      assert_match(/and waited 0\.05 s for one/, stalled.error.message)
    end

    def test_without_the_waits_nothing_is_called_starved_and_nothing_is_said_of_them
      unknown = EmptyWindow.new(Result.new(requests: 0, duration_s: 1.0), {}, server_cpu_s: 0.3)
      refute unknown.starved?
      assert_match(/; the server used 0\.30 s of CPU\z/, unknown.error.message)
    end
  end
end
