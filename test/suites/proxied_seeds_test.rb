# frozen_string_literal: true

require "test_helper"
require_relative "seed_smoke"

module Rackbench
  # 001 (Thin behind nginx) and 004 (lighttpd balancing) need the proxies of
  # issue 5; until lib/rackbench/proxies/ has them these tests say so and skip.
  class ProxiedSeedsSuiteTest < Minitest::Test
    include SeedSmoke

    def needs_proxy(name)
      Proxies.fetch(name)
    rescue UnknownName => e
      skip "#{e.message} (the proxies of issue 5 have not landed)"
    end

    def test_thin_nginx_2008_prints_the_ab_report_for_every_socket_count_and_worker_count
      needs_proxy("nginx")
      out, _run, cells, charts = smoke_run("thin-nginx-2008")
      assert_rows_for_every_server("thin-nginx-2008", out, cells)
      assert_match(%r{Requests per second:\s+[\d.]+ \[#/sec\] \(mean\)}, out)
      assert_match(/Memory under load:\s+[\d.]+ MB/, out)
      assert_charts_drawn(charts, at_least: 3, named: [/memory-mb/])
      assert_verdicts(out, 5)
    end

    def test_lighttpd_proxy_2008_prints_the_ab_report_and_the_side_by_side_figures
      needs_proxy("lighttpd")
      out, _run, cells, charts = smoke_run("lighttpd-proxy-2008")
      assert_rows_for_every_server("lighttpd-proxy-2008", out, cells)
      assert_match(/100%\s+\d+ \(longest request\)/, out)
      # 004's side-by-side figures: a row per figure, or a column per figure when the configs do not fit 120 columns.
      assert_match(/^\| Server load \(cores busy\) |\| cores busy \|/, out)
      assert_charts_drawn(charts, at_least: 4, named: [/longest-ms/, /server-load/])
      assert_verdicts(out, 6)
      assert_match(/Here, unlike the article:\n.*fair stands in for it/m, out)
      mongrels = cells.select { |c| c["server"] == "mongrel" }
      assert_equal [true] * 3, mongrels.map { |c| c["config"]["lock"] }, "the claims' Mongrels serve one request at a time"
    end
  end
end
