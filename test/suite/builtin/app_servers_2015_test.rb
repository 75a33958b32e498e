# frozen_string_literal: true

require "test_helper"
require_relative "seed_smoke"

module Rackbench
  class AppServers2015SuiteTest < Minitest::Test
    include SeedSmoke

    def test_the_smoke_run_prints_the_three_column_tables_for_sinatra_and_roda
      out, _run, cells, charts = smoke_run("app-servers-2015")
      assert_rows_for_every_server("app-servers-2015", out, cells)
      assert_includes out, "| App server | Throughput (req/s) | Latency (ms) | Req. Errors (n/tot) |"
      %w[sinatra
         roda].product(["10 numbers, cache disabled", "10000 numbers, cache disabled",
                        "10000 numbers, cache enabled"]).each do |app, test|
        assert_includes out, "#### #{app} #{test} at concurrency 20"
      end
      assert_match(/wrk --threads 2 --connections 20/, out)
      assert_match(/wrk --threads 2 --connections 20 .*--timeout 2s/, out, "wrk's default timeout, as the article's wrk had")
      assert_match(/Here, unlike the article:\n.*primes up to 100,000/m, out)
      assert_charts_drawn(charts, at_least: 12, named: [/good-requests-per-s/])
      assert_verdicts(out, 9)
    end
  end
end
