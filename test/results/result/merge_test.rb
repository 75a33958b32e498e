# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # Result.merge: the cell measured from several load hosts at once.
  class ResultMergeTest < Minitest::Test
    def part(requests:, mean_us:, histogram:, series:, errors: {}, rps: 100.0, warnings: [])
      Result.new(engine: "native", requests: requests, duration_s: 1.0, requests_per_s: rps, bytes: requests * 10,
                 latency_us: { "mean" => mean_us, "stdev" => 3.0, "min" => histogram.first.first,
                               "max" => histogram.last.first, "p50" => 0, "p99" => 0 },
                 errors: errors, status_counts: { "200" => requests }, histogram: histogram, series: series,
                 warnings: warnings)
    end

    def point(t_s, requests, p99_us)
      { "t_s" => t_s, "requests" => requests, "errors" => 0, "p50_us" => 10, "p99_us" => p99_us, "max_us" => p99_us }
    end

    def setup
      @a = part(requests: 30, mean_us: 100.0, histogram: [[50, 10], [100, 15], [400, 5]],
                series: [point(1.0, 20, 400), point(2.0, 10, 100)], errors: { "timeout" => 2 }, warnings: ["slow"])
      @b = part(requests: 10, mean_us: 60.0, histogram: [[50, 5], [70, 5]], series: [point(1.0, 10, 70)],
                errors: { "timeout" => 1, "connect" => 4 }, rps: 50.0)
      @merged = Result.merge([@a, @b], hosts: [{ "host" => "load1" }, { "host" => "load2" }])
    end

    def test_counts_are_summed_and_errors_kept_by_kind
      assert_equal 40, @merged.requests
      assert_equal 150.0, @merged.requests_per_s
      assert_equal 3, @merged.errors["timeout"]
      assert_equal 4, @merged.errors["connect"]
      assert_equal({ "200" => 40 }, @merged.status_counts)
    end

    def test_histograms_merge_bucket_by_bucket_and_percentiles_come_from_the_merge
      assert_equal [[50, 15], [70, 5], [100, 15], [400, 5]], @merged.histogram
      assert_equal 400, @merged.latency_us["p99"]
      assert_equal 70, @merged.latency_us["p50"]
      assert_equal 90.0, @merged.latency_us["mean"], "the hosts' means weighted by their requests"
      refute @merged.latency_us.key?("stdev"), "a spread cannot be merged from spreads"
    end

    def test_series_merge_second_by_second
      assert_equal([[1.0, 30, 400], [2.0, 10, 100]], @merged.series.map { |p| [p["t_s"], p["requests"], p["max_us"]] })
    end

    def test_each_hosts_share_and_warnings_name_their_host
      assert_equal([30, 10], @merged.hosts.map { |h| h["requests"] })
      assert_equal(%w[load1 load2], @merged.hosts.map { |h| h["host"] })
      assert_equal ["load1: slow"], @merged.warnings
    end

    def window(total:, completed:, censored:, histogram:, censored_histogram:)
      { "total" => total, "completed" => completed, "failed" => total - completed - censored, "censored" => censored,
        "timeout" => 0, "in_flight" => censored, "unsent" => 0, "histogram" => histogram,
        "censored_histogram" => censored_histogram }
    end

    def test_the_windows_requests_merge_exactly_counts_and_censored_ages_alike
      @a.window_requests = window(total: 40, completed: 30, censored: 10, histogram: [[50, 30]],
                                  censored_histogram: [[900, 10]])
      @b.window_requests = window(total: 12, completed: 10, censored: 2, histogram: [[50, 10]],
                                  censored_histogram: [[900, 1], [2000, 1]])
      merged = Result.merge([@a, @b]).window_requests
      assert_equal [52, 40, 12, 12], merged.values_at("total", "completed", "censored", "in_flight")
      assert_equal [[900, 11], [2000, 1]], merged["censored_histogram"]
      assert_equal [[50, 40]], merged["histogram"]
    end

    def test_without_every_hosts_window_requests_the_merge_has_none
      @a.window_requests = window(total: 1, completed: 1, censored: 0, histogram: [[5, 1]], censored_histogram: [])
      assert_nil Result.merge([@a, @b]).window_requests
    end

    def group(requests, histogram, paced)
      { "connections" => 2, "requests" => requests, "requests_per_s" => requests / 1.0, "bytes" => requests * 100,
        "sent_bytes" => requests * 10, "errors" => { "status" => 0, "check" => 0, "other" => 1 },
        "latency_us" => { "mean" => 1.0 }, "histogram" => histogram, "send_bytes_per_s" => 500.0, "paced" => paced }
    end

    def test_bodies_and_warm_up_responses_are_summed_and_client_groups_merged_with_their_paces
      { sent_bytes: [10, 5], body_bytes: [100, 50], decoded_bytes: [300, 150], gzip_responses: [3, 1],
        warmup_requests: [20, 7] }.each do |field, (a, b)|
        @a[field] = a
        @b[field] = b
      end
      @a.clients = { "fast" => group(30, [[50, 30]], {}),
                     "slow" => group(2, [[900, 2]], { "send_bytes" => 1000, "send_s" => 2.0 }) }
      @b.clients = { "fast" => group(10, [[70, 10]], {}),
                     "slow" => group(1, [[2000, 1]], { "send_bytes" => 400, "send_s" => 1.0 }) }
      merged = Result.merge([@a, @b])
      assert_equal [15, 150, 450, 4], [merged.sent_bytes, merged.body_bytes, merged.decoded_bytes, merged.gzip_responses]
      assert_equal 27, merged.warmup_requests
      assert_equal [40, 4, 2], [merged.fast_clients.requests, merged.fast_clients.connections,
                                merged.fast_clients.error_count]
      assert_equal [[900, 2], [2000, 1]], merged.slow_clients.histogram
      assert_in_delta 1400 / 3.0, merged.slow_clients.held_send_bytes_per_s, 0.01, "bytes over seconds, not a mean of rates"
      @b.clients = nil
      assert_nil Result.merge([@a, @b]).clients
    end

    def test_a_merged_result_survives_the_store_round_trip
      assert_equal @merged.hosts, Result.from_h(JSON.parse(@merged.to_h.to_json)).hosts
    end
  end
end
