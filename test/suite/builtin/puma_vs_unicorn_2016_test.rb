# frozen_string_literal: true

require "test_helper"
require_relative "seed_smoke"

module Rackbench
  class PumaVsUnicorn2016SuiteTest < Minitest::Test
    include SeedSmoke

    def test_the_smoke_run_sweeps_six_endpoints_on_six_configs_with_a_chart_per_endpoint
      out, _run, cells, charts = smoke_run("puma-vs-unicorn-2016")
      assert_rows_for_every_server("puma-vs-unicorn-2016", out, cells)
      assert_equal %w[fibonacci template-render sleep sleep-render network-io network-io-render], cells.map { |c|
        c["endpoint"]
      }.uniq
      assert_equal 6, cells.map { |c| c["label"] }.uniq.size
      assert_match "workers 4 -> 1, 8 -> 2", out
      assert_match(%r{\| req/s \\ concurrency\s+\|\s+2 \|\s+4 \|}, out)
      assert_match "Configurations side by side at concurrency 4", out
      assert_charts_drawn(charts, at_least: 14, named: [/rails-sleep-reqs/, /rails-sleep-latency/, /configs-c4-requests-per-s/,
                                                        /endpoints-c4-requests-per-s/])
      assert_verdicts(out, 14)
      assert_match(%r{^#### Memory per worker process on sleep: PSS / RSS MB at each concurrency}, out)
      assert_match(%r{^\| unicorn, 1 worker[^|]*\| \d+ / \d+ \|.*\| ~110 \|$}, out, "a worker's PSS, RSS, the article's")
    end
  end
end
