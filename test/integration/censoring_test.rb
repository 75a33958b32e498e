# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # A real puma with one thread on 50 ms sleeps (capacity about 20 req/s)
  # offered 80 req/s open loop for 3 s, through the whole pipeline: the
  # store keeps the window's requests, and the reports count the unfinished
  # ones, mark the percentiles they cover as bounds, and the median of all
  # the window's requests exceeds the median of the completed ones.
  class CensoringTest < Minitest::Test
    def test_an_overloaded_server_is_reported_with_its_unfinished_requests
      path = write_suite("engine" => "native", "endpoints" => ["/sleep/50"], "concurrency" => [64], "rate" => 80,
                         "duration_s" => 3, "warmup_s" => 0.5, "repeats" => 1, "deployments" => 1,
                         "servers" => [{ "server" => "puma", "threads" => 1 }])
      status, out, err = run_cli("run", path, "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      store = Store.new(tmpdir)
      cell = store.measurements(store.run["id"]).first
      window = cell.window_requests
      assert_operator window.censored, :>, window.total / 2, "a quarter of the rate served leaves most unfinished"
      assert_operator cell.unfinished_share, :>, 0.5
      assert cell.latency_all(50).bound, "the median of all falls among the unfinished"
      assert_operator cell.latency_all(50).value_ms, :>, cell.latency_ms(50),
                      "the median of all the window's requests exceeds the median of the completed ones"

      _, table, = run_cli("report", "--results", tmpdir)
      assert_match(/^Latency: open loop: time from each request's scheduled send/, table)
      assert_match(/>= \d+\.\d\d/, table, "the p50 and p99 columns show bounds")
      warning = table[/^  - \d[\d.]* % of the window's requests had no response.*?(?=^  - |\z)/m].to_s.split.join(" ")
      assert_match(/censored, and the median of all is at least \S+: the server is past its capacity/, warning)

      _, json, = run_cli("report", "--format", "json", "--results", tmpdir)
      data = JSON.parse(json)["cells"].first
      assert_equal "open", data["latency_model"]
      assert data["latency_all_ms"]["p99"]["censored"]
      assert_equal window.censored, data["window_requests"]["censored"]
      assert_nothing_left
    ensure
      store&.close
    end

    def test_a_closed_loop_run_says_what_its_latency_is
      path = write_suite("engine" => "native", "endpoints" => ["/hello"], "concurrency" => [2], "duration_s" => 0.5,
                         "warmup_s" => 0.2, "repeats" => 1, "deployments" => 1, "servers" => [{ "server" => "webrick" }])
      status, out, err = run_cli("run", path, "--results", tmpdir)
      assert_equal 0, status, "#{out}\n#{err}"
      %w[table markdown html].each do |format|
        _, text, = run_cli("report", "--format", format, "--results", tmpdir)
        text = File.read(text.strip) if format == "html"
        assert_includes text, "closed loop: time from send on a free connection; stalls are under-sampled", format
      end
      assert_nothing_left
    end
  end
end
