# frozen_string_literal: true

require "test_helper"
require_relative "seed_smoke"

module Rackbench
  # 001 (Thin behind nginx) and 004 (lighttpd balancing): seeds behind proxies.
  class ProxiedSeedsSuiteTest < Minitest::Test
    include SeedSmoke

    def test_thin_nginx_2008_prints_the_ab_report_for_every_socket_count_and_worker_count
      out, run, cells, charts = smoke_run("thin-nginx-2008")
      assert_rows_for_every_server("thin-nginx-2008", out, cells)
      assert_match(%r{Requests per second:\s+[\d.]+ \[#/sec\] \(mean\)}, out)
      assert_match(/Memory under load:\s+[\d.]+ MB/, out)
      assert_charts_drawn(charts, at_least: 3, named: [/memory-mb/])
      assert_verdicts(out, 6)
      assert_mongrel_cluster_measured_and_compared(cells, out)
      assert_socket_comparisons_answer_by_the_servers_cpus(run, out)
    end

    # The article's "vanilla Mongrel Cluster/Nginx configuration": four
    # Mongrels (two in the smoke run, which halves every config's processes),
    # one request at a time each, measured without an error.
    def assert_mongrel_cluster_measured_and_compared(cells, out)
      mongrel = cells.select { |c| c["server"] == "mongrel" }
      seen = mongrel.map { |c| [c["status"], c.errors, c["config"]["instances"], c["config"]["lock"]] }
      instances = Suite.load("thin-nginx-2008", overrides: { "smoke" => true }).server_configs
                       .find { |c| c["server"] == "mongrel" }.fetch("instances")
      assert_equal [["ok", 0, instances, true]], seen, mongrel.map { |c| c["reason"] }.inspect
      compared = out[/^- Thin x4 behind nginx is significantly faster than a Mongrel cluster behind nginx: ([^,]+),/, 1]
      refute_nil compared, "the claim is printed"
      refute_equal "cannot show here", compared, "the Mongrel cluster was compared (the answer is checked by assert_verdicts)"
    end

    # 3/4/5 sockets and 3/6 nginx workers need 4 server CPUs to differ: with
    # fewer (one, pinned, on a 2-core machine) the report says they cannot show it.
    def assert_socket_comparisons_answer_by_the_servers_cpus(run, out)
      cpus = run.dig("pinning", "server_cpus")&.size || run.dig("machine", "cores")
      lines = out.lines.grep(/^- (Five Thin sockets|Four Thin sockets|Six nginx workers)/)
      assert_equal 3, lines.size
      not_measured = out[/^Not measured here:\n(?:- .*\n)+/]
      lines.each do |line|
        if cpus < 4
          assert_match(/: cannot show here, a difference needs 4 CPUs for the server and it had #{cpus} CPUs? here/, line,
                       not_measured)
        else
          refute_match(/cannot show here/, line)
        end
      end
      assert_match(/The article's machine: a 512 MB VPS slice [^.]*\. Here the server had #{cpus} CPU/, out.gsub(/\s+/, " "))
    end

    def test_lighttpd_proxy_2008_prints_the_ab_report_and_the_side_by_side_figures
      out, _run, cells, charts = smoke_run("lighttpd-proxy-2008")
      assert_rows_for_every_server("lighttpd-proxy-2008", out, cells)
      assert_match(/100%\s+\d+ \(longest request\)/, out)
      # 004's side-by-side figures: a row per figure, or a column per figure when the configs do not fit 120 columns.
      assert_match(/^\| Server load \(cores busy\) |\| cores busy \|/, out)
      assert_charts_drawn(charts, at_least: 4, named: [/longest-ms/, /server-load/])
      assert_verdicts(out, 8)
      assert_match(/Here, unlike the article:\n.*fair stands in for it/m, out)
      mongrels = cells.select { |c| c["server"] == "mongrel" }
      assert_equal [true] * 3, mongrels.map { |c| c["config"]["lock"] }, "the claims' Mongrels serve one request at a time"
    end
  end
end
