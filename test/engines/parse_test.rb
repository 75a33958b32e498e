# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # The engines' parsers, on reports shaped like the tools' real output.
  class EnginesParseTest < Minitest::Test
    AB_REPORT = <<~TEXT
      Concurrency Level:      100
      Time taken for tests:   2.500 seconds
      Complete requests:      10000
      Failed requests:        7
         (Connect: 1, Receive: 2, Length: 3, Exceptions: 1)
      Non-2xx responses:      4
      Total transferred:      1230000 bytes
      Requests per second:    4000.00 [#/sec] (mean)
      Time per request:       25.000 [ms] (mean)
      Time per request:       0.250 [ms] (mean, across all concurrent requests)

      Percentage of the requests served within a certain time (ms)
        50%     20
        66%     22
        90%     30
        99%     55
       100%     70 (longest request)
    TEXT

    def load = Engines::Load.new(target: Target.tcp(1), concurrency: 100, duration_s: 2)

    def test_ab_reports_become_one_result
      result = Engines.fetch("ab").new.parse(AB_REPORT, load, ["ab"])
      assert_equal [10_000, 2.5, 4000.0, 1_230_000], [result.requests, result.duration_s, result.requests_per_s, result.bytes]
      assert_equal({ "mean" => 25_000.0, "p50" => 20_000, "p90" => 30_000, "p99" => 55_000, "max" => 70_000 }, result.latency_us)
      assert_equal [1, 3, 3, 4], result.errors.values_at("connect", "read", "check", "status")
    end

    def test_wrk_json_lines_become_one_result
      line = 'RACKBENCH_JSON {"requests":500,"duration_us":2000000,"bytes":6000,' \
             '"errors":{"connect":0,"read":0,"write":0,"status":2,"timeout":1},' \
             '"latency":{"mean":1500.5,"stdev":10.0,"min":100,"max":9000,"50":1400,"75":1600,"90":2000,"99":5000,"99.9":8000}}'
      result = Engines.fetch("wrk").new.parse("Running 2s test\n#{line}\n", load, ["wrk"])
      assert_equal [500, 250.0, 1400, 5000],
                   [result.requests, result.requests_per_s, result.latency_us["p50"], result.latency_us["p99"]]
      assert_equal 3, result.error_count
    end

    def test_the_supervisors_deadline_for_an_engine_accounts_for_a_request_count
      timed = Engines::Load.new(target: Target.tcp(1), concurrency: 10, duration_s: 5, timeout_s: 2)
      counted = Engines::Load.new(target: Target.tcp(1), concurrency: 10, requests: 10_000, timeout_s: 2)
      assert_equal 5 + 2 + 30, timed.deadline_s
      assert_equal (1000 * 2) + 2 + 30, counted.deadline_s, "1000 rounds of 10 requests, each round up to the timeout"
      both = Engines::Load.new(target: Target.tcp(1), concurrency: 100, requests: 1500, duration_s: 2, timeout_s: 30)
      assert_equal (15 * 30) + 30 + 30, both.deadline_s, "the Runner fills duration_s from the suite's default: ab -n " \
                                                         "1500 at 25 req/s was killed at 62 s"
    end

    def test_the_native_engines_unsent_open_loop_requests_are_an_error_kind
      native = Engines.fetch("native").new
      json = lambda do |mode|
        { "mode" => mode, "unsent" => 7, "requests" => 10, "duration_s" => 1.0, "requests_per_s" => 10.0, "bytes" => 100,
          "latency_us" => { "p50" => 1 }, "errors" => { "connect" => 0 }, "status_counts" => { "200" => 10 },
          "reconnects" => 0, "series" => [], "histogram" => [], "warnings" => [] }.to_json
      end
      assert_equal 7, native.parse(json.call("open"), load, ["rackbench-load"]).errors["unsent"]
      refute native.parse(json.call("closed"), load, ["rackbench-load"]).errors.key?("unsent")
    end

    def test_the_native_engine_keeps_the_windows_requests_and_its_schedule
      window = { "total" => 12, "completed" => 5, "failed" => 0, "censored" => 7, "timeout" => 0, "in_flight" => 3,
                 "unsent" => 4, "histogram" => [[100, 5]], "censored_histogram" => [[900, 7]] }
      json = { "mode" => "open", "target_rate_per_s" => 80.0, "arrivals" => "poisson", "seed" => 3, "unsent" => 4,
               "requests" => 5, "duration_s" => 1.0, "requests_per_s" => 5.0, "bytes" => 50, "latency_us" => { "p50" => 100 },
               "errors" => { "connect" => 0 }, "status_counts" => { "200" => 5 }, "reconnects" => 0, "series" => [],
               "histogram" => [[100, 5]], "warnings" => [], "window_requests" => window }.to_json
      result = Engines.fetch("native").new.parse(json, load, ["rackbench-load"])
      assert_equal window, result.window_requests
      assert_equal({ "mode" => "open", "target_rate_per_s" => 80.0, "arrivals" => "poisson", "seed" => 3 }, result.schedule)
      assert_equal "open", result.mode
    end

    def test_the_native_engine_offers_poisson_arrivals_with_their_seed_in_open_loop_only
      native = Engines.fetch("native").new
      open = Engines::Load.new(target: Target.tcp(1), concurrency: 8, duration_s: 2, rate: 80, arrivals: "poisson", seed: 7)
      argv = native.command(open, nil)
      assert_equal %w[poisson 7], [argv[argv.index("--arrivals") + 1], argv[argv.index("--seed") + 1]]
      closed = Engines::Load.new(target: Target.tcp(1), concurrency: 8, duration_s: 2, arrivals: "poisson")
      refute_includes native.command(closed, nil), "--arrivals"
    end

    def test_an_engine_that_printed_no_report_is_a_service_error
      assert_raises(ServiceError) { Engines.fetch("ab").new.parse("apr_socket_recv: Connection refused", load, ["ab"]) }
      assert_raises(ServiceError) { Engines.fetch("wrk").new.parse("unable to connect", load, ["wrk"]) }
    end
  end
end
