# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/charts/percentiles"

module Rackbench
  class ChartsPercentilesTest < Minitest::Test
    include SeedFixtures

    HISTOGRAM = [[1000, 900], [2000, 90], [9000, 9], [40_000, 1]].freeze

    def test_percentiles_sit_on_a_nines_axis_up_to_what_the_request_count_resolves_then_the_longest_request
      m = cell("puma", { "server" => "puma" }, histogram: HISTOGRAM, requests: 1000, spread: [1.0])
      points = Charts::Percentiles.new("rack /hello", [m], ["puma"]).points
      by_percentile = points.to_h { |p| [p["percentile"], p] }
      assert_equal 2.0, by_percentile["50%"]["nines"]
      assert_equal 1000.0, by_percentile["99.9%"]["nines"]
      refute by_percentile.key?("99.99%"), "1000 requests cannot resolve 99.99 %"
      assert_equal 40.0, by_percentile["longest"]["latency_ms"]
      assert_equal 2.0, by_percentile["99%"]["latency_ms"]
      assert_equal(points.map { |p| p["nines"] }.sort, points.map { |p| p["nines"] })
      assert(points.all? { |p| p["bound"] == "measured" }, "nothing was left without a response")
    end

    # 1000 completed at 1 ms, 30 left without a response at 2 s: p99 and the longest are lower bounds.
    def test_percentiles_among_unfinished_requests_are_drawn_as_bounds
      m = cell("puma", { "server" => "puma" }, histogram: [[1000, 1000]], requests: 1000, spread: [1.0])
      m.repeats.first.result.window_requests = { "total" => 1030, "completed" => 1000, "censored" => 30,
                                                 "histogram" => [[1000, 1000]], "censored_histogram" => [[2_000_000, 30]] }
      by_percentile = Charts::Percentiles.new("rack /hello", [m], ["puma"]).points.to_h { |p| [p["percentile"], p] }
      assert_equal [1.0, "measured"], by_percentile["50%"].values_at("latency_ms", "bound")
      assert_equal [2000.0, "at least (unfinished requests)"], by_percentile[">= 99%"].values_at("latency_ms", "bound")
      assert by_percentile.key?(">= longest")
      chart = Charts::Percentiles.new("rack /hello", [m], ["puma"]).chart
      shape = chart.dig("spec", "layer").last.dig("encoding", "shape")
      assert_equal({ "domain" => ["measured", "at least (unfinished requests)"], "range" => %w[circle triangle-up] },
                   shape["scale"], "circles for measured percentiles, triangles for bounds")
      region, = Charts::Percentiles.new("rack /hello", [m], ["puma"]).censored_regions
      assert_equal [by_percentile[">= 99%"]["nines"], by_percentile[">= longest"]["nines"]], region.values_at("from", "to"),
                   "the censored region is shaded from the first lower bound to the right edge"
      assert_equal "rect", chart.dig("spec", "layer", 0, "mark", "type")
    end

    # Three starts, each's p50 a little apart: every measured percentile gets an interval around it.
    def test_measured_percentiles_carry_their_interval_over_starts_drawn_as_a_band
      m = cell("puma", { "server" => "puma" }, histogram: HISTOGRAM, requests: 1000)
      m.repeats.each_with_index { |r, i| r.result.histogram = [[1000 + (100 * i), 900], [2000, 90], [9000, 9], [40_000, 1]] }
      chart = Charts::Percentiles.new("rack /hello", [m], ["puma"])
      median = chart.points.find { |p| p["percentile"] == "50%" }
      assert_operator median["low_ms"], :<, median["latency_ms"]
      assert_operator median["high_ms"], :>, median["latency_ms"]
      assert_nil chart.points.find { |p| p["percentile"] == "longest" }["low_ms"], "the longest request has no interval"
      assert_empty chart.censored_regions, "nothing was left without a response"
      band = chart.chart.dig("spec", "layer").find { |l| l.dig("mark", "type") == "area" }
      assert_equal(%w[low_ms high_ms], band["encoding"].values_at("y", "y2").map { |e| e["field"] })
    end
  end
end
