# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # A server offered four times its capacity: one puma thread on 50 ms
  # sleeps (at most 20 req/s) at 80 req/s, open loop, for 3 s. Most of the
  # window's requests get no response before the run stops; each is counted
  # and censored at its age, the percentiles they cover are lower bounds, and
  # the median of all the window's requests exceeds the median of those that
  # completed (the lucky ones a plain percentile describes).
  class NativeCensoringTest < Minitest::Test
    include EngineHelpers

    RATE = 80
    WINDOW_S = 3

    def overloaded_puma
      _puma, base = start_puma(threads: 1)
      "#{base}/sleep/50"
    end

    def test_an_overloaded_server_leaves_requests_unfinished_and_they_count
      r = load_json(overloaded_puma, "-c", 64, "-d", "#{WINDOW_S}s", "--warmup", "500ms", "--rate", RATE,
                    "--timeout", "10s")
      window = r["window_requests"]
      assert_equal RATE * WINDOW_S, window["total"], "every request scheduled in the window is one of its requests"
      assert_equal window["total"], r["scheduled"]
      assert_equal window["total"], window["completed"] + window["failed"] + window["censored"]
      assert_equal window["censored"], window["timeout"] + window["in_flight"] + window["unsent"]
      assert_equal r["unsent"], window["unsent"]
      assert_operator window["censored"], :>, window["total"] / 2, "a server at a quarter of the rate leaves most unfinished"
      assert_equal window["censored"], window["censored_histogram"].sum(&:last)
      assert r["latency_all_censored"]["p50"], "the median of all falls among the unfinished: a bound"
      assert r["latency_all_censored"]["p99"]
      assert_operator r["latency_all_us"]["p50"], :>, r["latency_us"]["p50"],
                      "the median of all the window's requests exceeds the median of the completed ones"
      assert(r["warnings"].any? { |w| w.include?("had no response") && w.include?("past its capacity") }, r["warnings"])
      assert(r["warnings"].any? { |w| w.include?("could not keep up") }, r["warnings"])
    end

    def test_the_summary_marks_the_bounds
      out, err, status, = load_raw(overloaded_puma, "-c", 64, "-d", "2s", "--rate", RATE, "--arrivals", "poisson",
                                   "--seed", 5)
      assert status.success?, err
      assert_match(%r{open loop at 80\.0 req/s, poisson arrivals}, out)
      assert_match(/Latency Distribution\s+completed\s+beyond\s+all requests\s+beyond/, out)
      assert_match(/^\s+90%\s+\S+\s+\d+\s+>= \S+\s+\d+$/, out, "p90 of all requests is printed as a lower bound")
      # the counts beside each percentile, for the reader (rackbench's Measurement) to judge it by:
      # two seconds at 80 req/s put about 1.6 requests beyond p99 of all of them
      row = out[/^\s+99%\s+\S+\s+(\d+)\s+(?:>= )?\S+\s+(\d+)$/]
      assert row, out
      assert_operator Regexp.last_match(2).to_i, :<, Measurement::TAIL_REQUESTS, "too few beyond p99 to estimate it"
      assert_match(/of them censored, '>=' a lower bound/, out)
    end

    # Poisson arrivals put fewer requests in a window than the rate times its
    # length about half the time (seed 1: 12 in 3 s at 5 req/s). Every one of
    # them answered is no shortfall, whatever the achieved rate.
    def test_fewer_arrivals_than_the_rate_promises_are_no_shortfall
      r = load_json(overloaded_puma, "-c", 8, "-d", "3s", "--rate", 5, "--arrivals", "poisson", "--seed", 1,
                    "--timeout", "10s", "--grace", "10s")
      window = r["window_requests"]
      assert_operator window["total"], :<, 15 * 0.99, "this seed's arrivals fall short of 5 req/s x 3 s"
      assert_equal window["total"], window["completed"]
      refute(r["warnings"].any? { |w| w.include?("could not keep up") }, r["warnings"])
    end

    def test_a_server_with_room_censors_nothing
      r = load_json(overloaded_puma, "-c", 8, "-d", "2s", "--rate", 5, "--timeout", "10s", "--grace", "10s")
      window = r["window_requests"]
      assert_equal 0, window["censored"], "at a quarter of its capacity every request is answered in the grace"
      assert_equal window["total"], window["completed"]
      refute(r["latency_all_censored"].values.any?)
    end
  end
end
