# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    # Breakdown on windows whose requests are known: the split at a percentile
    # is the mean of the requests in that percentile's bucket.
    class BreakdownTest < Minitest::Test
      # count requests, each queue_us + app_us (gc_us of it in GC).
      def window(*requests)
        w = { "n" => 0, "stamped" => 0, "gc_us" => 0, "gc_count" => 0, "processes" => [1], "total" => {}, "queue" => {},
              "app" => {} }
        requests.each do |count, queue_us, app_us, gc_us|
          w["n"] += count
          w["stamped"] += count
          w["gc_us"] += gc_us * count
          sums = (w["total"][Histogram.index(queue_us + app_us)] ||= [0, 0, 0, 0])
          [count, queue_us * count, app_us * count, gc_us * count].each_with_index { |v, k| sums[k] += v }
          w["queue"][Histogram.index(queue_us)] = w["queue"].fetch(Histogram.index(queue_us), 0) + count
          w["app"][Histogram.index(app_us)] = w["app"].fetch(Histogram.index(app_us), 0) + count
        end
        w
      end

      def test_p50_and_p99_are_split_into_the_queue_app_and_gc_of_the_requests_there
        b = Breakdown.new([window([90, 150_000, 50_000, 0], [10, 300_000, 80_000, 20_000])])

        assert_in_delta 150.0, b.at(50)["queue_ms"], 0.01
        assert_in_delta 50.0, b.at(50)["app_ms"], 0.01
        assert_in_delta 300.0, b.at(99)["queue_ms"], 0.01
        assert_in_delta 20.0, b.at(99)["gc_ms"], 0.01
        assert_in_delta 2.0, b.gc_ms_per_request, 0.01
      end

      # Three starts whose queue p50 is 100, 200 and 150 ms: the interval is
      # Student t over the starts' log figures (2 degrees of freedom), around
      # the figure of all requests merged.
      def test_the_interval_is_student_t_over_server_starts_around_the_merged_figure
        b = Breakdown.new([window([10, 100_000, 50_000, 0]), window([10, 200_000, 50_000, 0]),
                           window([10, 150_000, 50_000, 0])], starts: [1, 2, 3])
        ci = b.ci(:queue_ms, 50)
        logs = [100_000, 200_000, 150_000].map { |us| Math.log(Histogram.value(Histogram.index(us)) / 1000.0) }
        half = 4.303 * Stats.stddev(logs) / Math.sqrt(3)

        assert_in_delta b.queue_ms(50), ci.estimate, 1e-9
        assert_in_delta Math.log(b.queue_ms(50)) - half, Math.log(ci.low), 1e-3
        assert_in_delta Math.log(b.queue_ms(50)) + half, Math.log(ci.high), 1e-3
      end

      # Every start's p50 in one bucket (153.6 ms, about 3 % wide): the
      # interval spans that bucket, never a point.
      def test_an_interval_is_never_narrower_than_the_bucket_that_holds_the_figure
        b = Breakdown.new([window([10, 153_600, 50_000, 0]), window([10, 153_700, 50_000, 0]),
                           window([10, 153_650, 50_000, 0])], starts: [1, 2, 3])
        ci = b.ci(:queue_ms, 50)
        low, high = Histogram.bounds(Histogram.index(153_600))
        assert_operator ci.high / ci.low, :>=, high.fdiv(low) * (1 - 1e-9), "#{ci.to_a}: the bucket is #{low}..#{high} us"
        assert ci.cover?(b.queue_ms(50))
      end

      # Windows of one start share what that start drew: two of them are one
      # sample, not two, and give no interval.
      def test_windows_of_one_start_count_once
        windows = [window([10, 100_000, 50_000, 0]), window([10, 200_000, 50_000, 0])]

        assert_nil Breakdown.new(windows, starts: [7, 7]).ci(:queue_ms, 50)
        refute_nil Breakdown.new(windows, starts: [7, 8]).ci(:queue_ms, 50)
        assert_equal 1, Breakdown.new(windows, starts: [7, 7]).starts
      end

      def test_repeats_without_probe_records_give_no_breakdown
        refute_predicate Breakdown.new([nil, window]), :any?
      end
    end
  end
end
