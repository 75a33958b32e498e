# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A real puma (4 threads on 50 ms sleeps: at most 80 req/s) swept at a
  # quarter of its capacity and at four times it: each rate is a stored
  # level, neither the schedule nor the capacity is exceeded, the overload
  # queues, and the reports draw latency against offered rate.
  class RateSweepTest < Minitest::Test
    def test_a_rate_sweep_stores_each_offered_rate_and_shows_the_knee
      path = write_suite("engine" => "native", "endpoints" => ["/sleep/50"], "concurrency" => [32], "rates" => [20, 320],
                         "warmup_s" => 0.5, "servers" => [{ "server" => "puma", "threads" => 4 }])
      status, out, err = run_cli("run", path, "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      store = Store.new(tmpdir)
      light, heavy = store.measurements(store.run["id"]).sort_by(&:offered_rate_per_s)
      assert_equal [20, 320], [light, heavy].map(&:offered_rate_per_s)
      assert_equal ["puma x0:4 @ 20 req/s", "puma x0:4 @ 320 req/s"], [light.label, heavy.label]
      # Bounds the server's shape sets, whatever else the machine runs: the
      # open loop never sends ahead of its schedule (the window's Poisson
      # arrivals, and of those due in the 0.5 s warm-up, about 10, the ones
      # that finish in the window: 20 allowed), 4 threads of 50 ms serve at
      # most 80 req/s, and 320 offered against that must queue.
      light_window = light.repeats.first.result
      assert_operator light_window.requests, :<=, light_window.window_requests["total"] + 20, "the schedule is not exceeded"
      assert_operator heavy.requests_per_s, :<=, 100, "no more than the capacity (and the 4 in service at the start)"
      assert_operator heavy.latency_ms(99), :>, 100, "four times the capacity queues past the 50 ms sleep"
      assert_match %r{^Latency against offered rate: puma x0:4, /sleep/50, 32 connections$}, out
      _, html_path, = run_cli("report", "--format", "html", "--results", tmpdir)
      assert_includes File.read(html_path.strip), 'data-name="sleep-50-c32-rate-sweep"'
      assert_nothing_left
    ensure
      store&.close
    end
  end
end
