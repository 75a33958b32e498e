# frozen_string_literal: true

require "test_helper"
require "rackbench/charts/why"

module Rackbench
  # The html report's "Why" chart from probe windows whose requests are known
  # (as in test/probe/breakdown_test.rb): the stacked parts add up to the
  # split of each percentile, and the total's interval is over server starts.
  class ChartsWhyTest < Minitest::Test
    Cell = Struct.new(:label, :concurrency)

    # count requests of queue_us + app_us, gc_us of the app time in GC.
    def window(count, queue_us, app_us, gc_us)
      i = Probe::Histogram.index(queue_us + app_us)
      { "n" => count, "stamped" => count, "gc_us" => gc_us * count, "gc_count" => 0, "processes" => [1],
        "total" => { i => [count, queue_us * count, app_us * count, gc_us * count] },
        "queue" => { Probe::Histogram.index(queue_us) => count }, "app" => { Probe::Histogram.index(app_us) => count } }
    end

    def chart = Charts::Why.new("rack /sleep/50", [], ["puma x0:1"])

    def test_each_bar_stacks_queue_app_without_gc_and_gc_into_the_percentiles_split
      breakdown = Probe::Breakdown.new([window(20, 150_000, 50_000, 4_000)], starts: [1])
      points = chart.points([[Cell.new("puma x0:1", 4), breakdown]])
      p50 = points.select { |p| p["column"] == "c=4 p50" }.to_h { |p| [p["part"], p["ms"]] }

      assert_equal %w[queue app GC], p50.keys
      assert_in_delta 150.0, p50["queue"], 0.01
      assert_in_delta 46.0, p50["app"], 0.01, "app time less the GC inside it"
      assert_in_delta 4.0, p50["GC"], 0.01
      assert_equal ["c=4 p50", "c=4 p99"], points.map { |p| p["column"] }.uniq
    end

    def test_the_totals_interval_needs_two_starts_and_holds_the_figure
      windows = [window(20, 150_000, 50_000, 0), window(20, 170_000, 50_000, 0), window(20, 160_000, 50_000, 0)]
      cell = Cell.new("puma x0:1", 4)
      one_start = chart.intervals([[cell, Probe::Breakdown.new(windows, starts: [1, 1, 1])]])
      three = Probe::Breakdown.new(windows, starts: [1, 2, 3])
      interval = chart.intervals([[cell, three]]).find { |i| i["column"] == "c=4 p50" }

      assert_empty one_start, "one start says nothing about the next"
      assert_operator interval["low"], :<=, three.at(50)["total_ms"]
      assert_operator interval["high"], :>=, three.at(50)["total_ms"]
      assert_operator interval["low"], :<, interval["high"]
    end
  end
end
