# frozen_string_literal: true

require "test_helper"
require "csv"
require "json"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # A rate sweep's latency against offered rate, in every text format.
    class RateSweepTest < Minitest::Test
      include SeedFixtures

      RUN = { "id" => 3, "suite" => "rates", "status" => "finished", "machine" => {}, "settings" => {} }.freeze

      def at_rate(server, rate, rps:, p99_ms:)
        key = { "config_label" => server, "offered_rate_per_s" => rate }
        cell("#{server} @ #{rate} req/s", { "server" => "puma" }, endpoint: "/sleep/50", concurrency: 32, rps: rps,
                                                                  max_ms: p99_ms / 0.9, key: key)
      end

      # Out of order, two configs, and a cell of no sweep.
      def cells
        [at_rate("puma x0:2", 400, rps: 41.0, p99_ms: 900.0), at_rate("puma x0:2", 100, rps: 40.0, p99_ms: 300.0),
         at_rate("puma x0:2", 20, rps: 20.0, p99_ms: 52.0), at_rate("puma x0:8", 20, rps: 20.0, p99_ms: 51.0),
         cell("webrick", { "server" => "webrick" }, endpoint: "/hello")]
      end

      def render(format) = Reports.fetch(format).new(RUN, cells).render

      def test_one_curve_per_config_and_endpoint_in_offered_rate_order
        curves = RateSweep.new(cells).curves
        assert_equal(["puma x0:2", "puma x0:8"], curves.map { |c| c["config"] })
        assert_equal([20, 100, 400], curves.first["rows"].map { |r| r["offered_per_s"] })
      end

      def test_a_row_gives_the_achieved_rate_and_p99_with_their_intervals
        row = RateSweep.new(cells).curves.first["rows"].last
        assert_in_delta 41.0, row["achieved_per_s"], 41.0 * 0.1
        assert_operator row["achieved_ci"].low, :<=, row["achieved_ci"].high
        assert_in_delta 900.0, row["p99_ms"], 1.0
      end

      def test_the_table_prints_p50_with_the_interval_json_carries
        row = RateSweep.new(cells).curves.first["rows"].first
        assert_includes render("table"), format("%.2f [%.2f, %.2f]", row["p50_ms"], row["p50_ci"].low, row["p50_ci"].high)
      end

      def test_no_sweep_makes_no_curve_in_any_format
        plain = [cell("webrick", { "server" => "webrick" })]
        refute RateSweep.new(plain).any?
        refute JSON.parse(Reports.fetch("json").new(RUN, plain).render).key?("rate_sweeps")
        cells = Reports.fetch("csv").new(RUN, plain).render.split("\n\n").first
        assert_nil CSV.parse(cells, headers: true).first["offered_rate_per_s"]
      end

      def test_json_carries_the_curves_with_intervals_as_numbers
        curve = JSON.parse(render("json"))["rate_sweeps"].first
        assert_equal([20, 100, 400], curve["rows"].map { |r| r["offered_per_s"] })
        %w[achieved_ci p50_ci p99_ci].each do |key|
          low, high = curve["rows"].last[key]
          assert_operator low, :<=, high, key
        end
        assert curve["rows"].last.key?("p90_ci"), "p90's CI, where the engine gave a histogram (this fixture has none)"
      end

      # json's rate_sweeps and its document's sections: one sweep, each row computed once.
      def test_json_computes_each_row_once_for_its_sections_and_its_rate_sweeps
        report = Reports.fetch("json").new(RUN, cells)
        computed = 0
        report.rate_sweep.singleton_class.prepend(Module.new { define_method(:row) { |m| (computed += 1) && super(m) } })
        data = JSON.parse(report.render)
        assert_equal 4, computed, "the four cells of the sweep, once each"
        assert_equal([3, 1], data["rate_sweeps"].map { |c| c["rows"].size })
        assert_equal(2, data["report"]["sections"].count { |s| s["id"] == "rate_sweep" })
      end

      def test_csv_gives_each_cell_its_offered_rate
        rows = CSV.parse(render("csv").split("\n\n").first, headers: true)
        assert_equal(%w[400 100 20 20] + [nil], rows.map { |r| r["offered_rate_per_s"] })
        assert_equal "/sleep/50", rows.first["endpoint"]
      end

      # 400 req/s offered to puma x0:2: 30 of 40 requests of its window left without a response.
      def overloaded_cells
        window = { "total" => 40, "completed" => 10, "failed" => 0, "censored" => 30, "timeout" => 0, "in_flight" => 10,
                   "unsent" => 20, "histogram" => [[900_000, 10]], "censored_histogram" => [[2_500_000, 30]] }
        cells.each { |m| m.repeats.each { |r| r.result.window_requests = window } if m.offered_rate_per_s == 400 }
      end

      def test_percentiles_among_unfinished_requests_are_bounds_with_the_share_unfinished
        table = Reports.fetch("table").new(RUN, overloaded_cells).render
        row = table.lines.find { |l| l.match?(/^\s*400 /) }
        assert_equal 2, row.scan(">= 2500.00").size, "p50 and p90 of all requests: at least 2.5 s"
        assert_includes row, "n=120, too few", "three windows of 40 requests are too few for a p99 (1,000)"
        assert_includes row, "75 %"
        curve = JSON.parse(Reports.fetch("json").new(RUN, overloaded_cells).render)["rate_sweeps"].first
        last = curve["rows"].last
        assert_equal [true, 2500.0, 0.75], last.values_at("p50_censored", "p50_all_ms", "unfinished_share")
        assert_equal [true, nil], last.values_at("p99_censored", "p99_all_ms"), "too few for a p99, as the table says"
      end

      def test_rates_auto_says_each_configs_knee_beside_its_curve
        auto = { "slo" => "p99 <= 200.0 ms", "knees" => [{ "endpoint" => "/sleep/50", "config" => "puma x0:2", "rate" => 40,
                                                           "interval" => [40, 44.4] }] }
        run = RUN.merge("settings" => { "auto_rates" => auto })
        table = Reports.fetch("table").new(run, cells).render
        assert_includes table, "Knee at p99 <= 200.0 ms: 40 req/s offered, met on two deployments; the knee lies between " \
                               "40 and 44.4 req/s (rates: auto)"
        assert_equal 1, table.scan("Knee at").size, "puma x0:8's curve has no knee found"
        curve = JSON.parse(Reports.fetch("json").new(run, cells).render)["rate_sweeps"].first
        assert_equal({ "rate" => 40, "interval" => [40, 44.4], "slo" => "p99 <= 200.0 ms" }, curve["knee"])
      end

      def test_a_knee_from_several_searches_says_its_interval_and_how_many_searches
        auto = { "slo" => "p99 <= 200.0 ms", "knees" => [{ "endpoint" => "/sleep/50", "config" => "puma x0:2", "rate" => 40,
                                                           "interval" => [37.2, 47.9], "searches" => 3 }] }
        table = Reports.fetch("table").new(RUN.merge("settings" => { "auto_rates" => auto }), cells).render
        assert_includes table.gsub(/\n +/, " "), "Knee at p99 <= 200.0 ms: 40 req/s offered, met when confirmed; knee in " \
                                                 "[37, 48] req/s from 3 searches (rates: auto)"
      end

      def test_the_table_and_markdown_show_a_curve_per_config
        assert_match %r{^Latency against offered rate: puma x0:8, /sleep/50, 32 connections$}, render("table")
        assert_match %r{^#### Latency against offered rate: puma x0:2, /sleep/50, 32 connections$}, render("markdown")
      end
    end
  end
end
