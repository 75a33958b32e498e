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
    end
  end
end
