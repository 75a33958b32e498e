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

      def test_the_between_repeat_interval_spans_the_repeats_own_figures
        b = Breakdown.new([window([10, 100_000, 50_000, 0]), window([10, 200_000, 50_000, 0]),
                           window([10, 150_000, 50_000, 0])])
        ci = b.ci(:queue_ms, 50)

        assert_operator ci.low, :<=, 110
        assert_operator ci.high, :>=, 140
      end

      def test_repeats_without_probe_records_give_no_breakdown
        refute_predicate Breakdown.new([nil, window]), :any?
      end
    end
  end
end
