# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A measurement's latency over every request of its windows: merged over
  # repeats, bounds marked, and said to be open or closed loop.
  class MeasurementAllRequestsTest < Minitest::Test
    def window(completed_us, censored_us)
      { "total" => completed_us.size + censored_us.size, "completed" => completed_us.size, "failed" => 0,
        "censored" => censored_us.size, "timeout" => 0, "in_flight" => censored_us.size, "unsent" => 0,
        "histogram" => completed_us.tally.sort, "censored_histogram" => censored_us.tally.sort }
    end

    def repeat(index, window, mode: "open", histogram: [[50_000, 10]])
      result = Result.new(engine: "native", requests: 10, duration_s: 1.0, requests_per_s: 10.0, histogram: histogram,
                          window_requests: window, schedule: mode && { "mode" => mode })
      Measurement::Repeat.new(index: index, deployment: 1, result: result, resources: {}, noise: nil)
    end

    def measurement(*repeats) = Measurement.new({ "label" => "puma", "status" => "ok" }, repeats)

    def test_the_repeats_windows_merge_and_a_rank_among_the_unfinished_is_a_bound
      m = measurement(repeat(1, window([50_000] * 10, [2_000_000] * 20)), repeat(2, window([50_000] * 10, [3_000_000] * 10)))
      assert_equal 50, m.window_requests.total
      assert_in_delta 0.6, m.unfinished_share
      assert_equal [50_000, false], m.latency_all(25).to_a
      assert_equal [2_000_000, true], m.latency_all(50).to_a
      assert_equal ">= 3000.00", m.latency_all_text(99)
      assert_equal "50.00", m.latency_all_text(10)
    end

    def test_json_gives_the_percentiles_over_all_requests_with_their_flags
      h = measurement(repeat(1, window([50_000] * 10, [2_000_000] * 30))).to_h
      assert_equal({ "value" => 2000.0, "censored" => true }, h["latency_all_ms"]["p99"])
      assert_equal %w[p50 p90 p99 p99_9 max], h["latency_all_ms"].keys
      assert_equal 30, h["window_requests"]["censored"]
      refute h["window_requests"].key?("histogram"), "the histograms stay in the repeats"
    end

    def test_an_engine_that_follows_no_requests_falls_back_to_the_completed_percentiles
      m = measurement(repeat(1, nil, mode: nil))
      assert_nil m.window_requests
      assert_nil m.latency_all(99)
      assert_equal "50.00", m.latency_all_text(99)
    end

    def test_closed_and_open_loop_are_told_apart_and_said_plainly
      assert_equal "closed", measurement(repeat(1, nil, mode: "closed")).latency_model
      assert_match "stalls are under-sampled", measurement(repeat(1, nil, mode: "closed")).latency_model_text
      assert_equal "open", measurement(repeat(1, window([1], []))).latency_model
      older = Result.new(engine: "native", requests: 1, command: ["rackbench-load", "--rate", "50"])
      assert_equal "open", measurement(Measurement::Repeat.new(index: 1, result: older, resources: {})).latency_model
      wrk = Result.new(engine: "wrk", requests: 1, command: ["wrk", "-c", "10"])
      assert_equal "closed", measurement(Measurement::Repeat.new(index: 1, result: wrk, resources: {})).latency_model
    end
  end
end
