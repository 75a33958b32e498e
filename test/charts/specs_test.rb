# frozen_string_literal: true

require "test_helper"
require "json"
require_relative "../reports/seed_fixtures"
require "rackbench/charts/specs"

module Rackbench
  # The chart kinds a seed article asks for (article: charts:), each drawn
  # from the run's cells, with the configs not measured named on the chart.
  class ChartsSpecsTest < Minitest::Test
    include SeedFixtures

    SERIES = (1..3).map { |t| { "t_s" => t.to_f, "requests" => 100 * t, "p99_us" => 9000 + (1000 * t) } }.freeze

    def cells
      [4, 16].flat_map do |c|
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, concurrency: c, rps: 90.0 * c, series: SERIES),
         cell("thin", { "server" => "thin" }, concurrency: c, rps: 20.0 * c, series: SERIES),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed", reason: "no jruby")]
      end
    end

    def specs(charts) = Charts::Specs.new(stored_run(article: { "charts" => charts }), cells)

    def test_bars_are_the_default_one_bar_per_measured_config_with_the_failed_named
      charts = Charts::Specs.new(stored_run, cells).all
      assert_equal 2, charts.size, "one per endpoint and concurrency"
      values = charts.first["spec"]["data"]["values"]
      assert_equal(["puma x0:16", "thin"], values.map { |v| v["config"] })
      assert_in_delta 360.0, values.first["value"], 0.5
      assert_match "torquebox", JSON.generate(charts.first["spec"]), "a config not measured is said on the chart"
    end

    def test_concurrency_draws_throughput_and_latency_lines_against_concurrency
      names = specs(["concurrency"]).all.map { |c| c["name"] }
      assert_equal 2, names.size
      assert(names.first.end_with?("-reqs") && names.last.end_with?("-latency"), names.inspect)
      points = specs(["concurrency"]).all.first["spec"]["data"]["values"]
      assert_equal [4, 16], points.select { |p| p["config"] == "thin" }.map { |p| p["concurrency"] }.sort
    end

    def test_a_timeline_of_p99_draws_each_seconds_p99
      chart = specs([{ "kind" => "timeline", "metric" => "p99_ms" }]).all.first
      assert chart["name"].end_with?("-timeline-p99"), chart["name"]
      assert_equal [10.0, 11.0, 12.0], chart["spec"]["data"]["values"].map { |p| p["p99_ms"] }.uniq.sort
    end

    def test_an_unknown_kind_or_timeline_metric_is_one_clear_error
      error = assert_raises(ConfigError) { specs(["pie"]).all }
      assert_equal 'unknown chart kind "pie"; known: concurrency, timeline, bars, tuning', error.message
      error = assert_raises(ConfigError) { specs([{ "kind" => "timeline", "metric" => "cpu" }]).all }
      assert_match 'timeline metric "cpu"; known: requests_per_s, p99_ms', error.message
    end
  end
end
