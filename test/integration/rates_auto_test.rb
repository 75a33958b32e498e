# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # rates: auto with a real puma (one thread on 10 ms sleeps: about 100
  # req/s): the knee search runs first (two searches: the fewest that give
  # an interval), its rates become the sweep's levels, and the curve with
  # the knee appears in table, markdown, json and html. The SLO, p50 <= 50
  # ms, is five times the sleep, as tune_command_test's: a busy machine's
  # waits for a CPU stay well inside it. (On 50 ms sleeps at p50 <= 100 ms,
  # 20 req/s left each 2 s probe some 40 requests, near the 20 a p50
  # decision needs: at load 7 the two searches took 24 probes and 93 s
  # where /sleep/10 took 16 and 67 s.) Probes of 1 s (probe_s: 1), not 2:
  # rates near 100 req/s bring five times the 20 requests a p50 needs.
  class RatesAutoTest < Minitest::Test
    def test_rates_auto_finds_the_knee_then_sweeps_around_it
      path = write_suite("engine" => "native", "endpoints" => ["/sleep/10"], "concurrency" => [32], "rates" => "auto",
                         "slo" => "p50<=50ms", "searches" => 2, "probe_s" => 1, "duration_s" => 1, "warmup_s" => 0.5,
                         "repeats" => 1, "deployments" => 1, "servers" => [{ "server" => "puma", "threads" => 1 }])
      status, out, err = run_cli("run", path, "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      store = Store.new(tmpdir)
      run = store.runs.find { |r| r.dig("settings", "auto_rates") }
      auto = run.dig("settings", "auto_rates")
      knee = auto["knees"].first
      assert_equal ["puma x0:1", 2], [knee["config"], knee["searches"]], "the suite's searches: are the knee's"
      assert_equal 1, store.run(knee["tune_run"])["settings"].dig("tune", "probe_s"), "the suite's probe_s: is the search's"
      assert_operator knee["rate"], :<=, 105, "one thread on 10 ms sleeps serves at most 100 req/s: past it the queue grows"
      rates = store.measurements(run["id"]).map(&:offered_rate_per_s).sort
      assert_equal auto["rates"]["/sleep/10"], rates, "the levels measured are the rates the search gave"
      assert_includes rates, knee["rate"], "the knee itself is a level"

      line = %r{^Knee at p50 <= 50\.0 ms, errors <= 0\.1 %: #{format("%g", knee["rate"])} req/s offered}
      _, table, = run_cli("report", run["id"].to_s, "--results", tmpdir)
      assert_match line, table
      assert_match(%r{^Latency against offered rate: puma x0:1, /sleep/10, 32 connections$}, table)
      _, markdown, = run_cli("report", run["id"].to_s, "--format", "markdown", "--results", tmpdir)
      assert_match line, markdown
      _, json, = run_cli("report", run["id"].to_s, "--format", "json", "--results", tmpdir)
      assert_equal knee["rate"], JSON.parse(json)["rate_sweeps"].first.dig("knee", "rate")
      _, html_path, = run_cli("report", run["id"].to_s, "--format", "html", "--results", tmpdir)
      html = File.read(html_path.strip)
      assert_includes html, 'data-name="sleep-10-c32-rate-sweep"'
      assert_includes html, "Knee at p50 &lt;= 50.0 ms"
      assert_nothing_left
    ensure
      store&.close
    end
  end
end
