# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/charts/page"

module Rackbench
  # The html page's charts follow the shape of the run, not a list in the suite.
  class ChartsPageTest < Minitest::Test
    include SeedFixtures

    SERIES = (1..4).map { |t| { "t_s" => t.to_f, "requests" => 100, "p99_us" => 9000 + t } }.freeze

    def measurements(concurrencies)
      concurrencies.flat_map do |c|
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, concurrency: c, rps: 90.0 * c, series: SERIES),
         cell("thin", { "server" => "thin" }, concurrency: c, rps: 20.0, series: SERIES),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed", reason: "no jruby")]
      end
    end

    def names(charts) = charts.map { |c| c["name"] }

    def test_a_sweep_leads_with_throughput_against_concurrency_and_draws_no_bars
      page = Charts::Page.new(stored_run, measurements([4, 16]))
      assert_equal "rack-hello-throughput", page.lead["name"]
      assert_equal([%w[rack-hello-throughput rack-hello-p99]], page.scaling.map { |pair| names(pair) })
      assert_empty page.bars
      band = page.lead["spec"]["data"]["values"].find { |p| p["config"] == "puma x0:16" && p["concurrency"] == 16 }
      assert_operator band["low"], :<, band["value"]
      assert_operator band["high"], :>, band["value"]
    end

    def test_one_concurrency_leads_with_bars_and_no_line
      page = Charts::Page.new(stored_run, measurements([8]))
      assert_empty page.scaling
      assert_equal "rack-hello-at-concurrency-8-requests-per-s", page.lead["name"]
      assert_empty page.why, "no probe records: no split of the latency to draw"
    end

    def test_every_cell_group_gets_a_percentile_plot_and_both_timelines_and_failed_configs_no_colour
      page = Charts::Page.new(stored_run, measurements([4, 16]))
      assert_equal([%w[rack-hello-at-concurrency-4-percentiles rack-hello-at-concurrency-4-timeline
                       rack-hello-at-concurrency-4-timeline-p99],
                    %w[rack-hello-at-concurrency-16-percentiles rack-hello-at-concurrency-16-timeline
                       rack-hello-at-concurrency-16-timeline-p99]],
                   page.cells.map { |g| names(g["charts"]) })
      assert_equal ["puma x0:16", "thin"], page.labels
      assert_equal ["not measured: torquebox"], page.lead["spec"]["title"]["subtitle"]
    end

    def test_the_article_charts_leave_out_what_the_page_already_draws
      article = { "charts" => ["timeline", "bars", { "kind" => "bars", "metric" => "memory_mb" }] }
      page = Charts::Page.new(stored_run(article: article), measurements([8]))
      assert_equal %w[rack-hello-at-concurrency-8-memory-mb], names(page.article)
    end

    def test_memory_per_config_and_per_process
      charts = Charts::Page.new(stored_run, measurements([8])).memory
      assert_equal %w[memory memory-per-process], names(charts)
      puma = charts.last["spec"]["data"]["values"].find { |p| p["config"] == "puma x0:16" }
      assert_equal 25.0, puma["per_process_mb"], "50 MB of PSS over 2 processes"
    end
  end
end
