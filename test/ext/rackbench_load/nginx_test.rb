# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # rackbench-load against a real nginx: counts, statuses, checks, accuracy.
  class NativeAgainstNginxTest < Minitest::Test
    include EngineHelpers

    def test_n_requests_are_exactly_n_responses_all_ok
      _nginx, base = start_nginx
      r = load_json("#{base}/hello", "-c", 8, "-n", 5000)
      assert_equal 5000, r["requests"]
      assert_equal({ "200" => 5000 }, r["status_counts"])
      assert_equal 0, errors_total(r)
      assert_operator r["bytes"], :>, 5000 * "hello world".bytesize
      assert_equal(5000, r["histogram"].sum { |_v, n| n })
    end

    def test_paths_are_taken_in_turn_and_statuses_counted_by_code
      _nginx, base = start_nginx
      r = load_json("#{base}/", "-c", 1, "-n", 300, "--path", "/hello", "--path", "/missing", "--path", "/empty")
      assert_equal({ "200" => 100, "404" => 100, "204" => 100 }, r["status_counts"])
      assert_equal 0, errors_total(r), "without --expect-status the engine has no rule of its own"
      r = load_json("#{base}/", "-c", 1, "-n", 300, "--path", "/hello", "--path", "/missing", "--path", "/empty",
                    "--expect-status", "200-399")
      assert_equal 100, r["errors"]["status"]
      assert_equal 0, r["errors"]["check"]
      warning = r["warning_codes"].find { |w| w["code"] == "answers" }
      assert_equal({ "code" => "answers", "failed" => 100, "responses" => 300, "status" => 100, "check" => 0 }, warning)
      assert_includes r["warnings"][r["warning_codes"].index(warning)], "33.3 % of responses failed their check"
    end

    # One verdict per answer: an unexpected status is a status error (its body
    # unchecked), an expected one without the body text a check error.
    def test_expect_status_and_expect_body_count_failures_once_each
      _nginx, base = start_nginx
      r = load_json("#{base}/", "-c", 2, "-n", 200, "--path", "/hello", "--path", "/chunked",
                    "--expect-status", "200", "--expect-body", "hello")
      assert_equal 0, errors_total(r), "chunked bodies are searched too"
      r = load_json("#{base}/", "-c", 2, "-n", 200, "--path", "/hello", "--path", "/missing",
                    "--expect-status", "200", "--expect-body", "hello")
      assert_equal 100, r["errors"]["status"]
      assert_equal 0, r["errors"]["check"]
      r = load_json("#{base}/hello", "-c", 2, "-n", 50, "--expect-body", "goodbye")
      assert_equal 50, r["errors"]["check"]
      assert_equal 0, r["errors"]["status"]
    end

    def test_a_server_closing_kept_alive_connections_causes_reconnects_not_errors
      _nginx, base = start_nginx(keepalive_requests: 10)
      r = load_json("#{base}/hello", "-c", 4, "-n", 2000)
      assert_equal 2000, r["requests"]
      assert_equal 0, errors_total(r)
      assert_in_delta 200, r["reconnects"], 8
    end

    # Little's law: mean latency x throughput is the number of requests in
    # flight, which a closed loop keeps at its connection count. How close it
    # comes on this machine is bench/engine's figure; here only that the
    # latency and the rate describe the same 32 connections, not 3 or 300.
    def test_closed_loop_latency_and_throughput_agree_on_the_connections_in_flight
      _nginx, base = start_nginx
      r = load_json("#{base}/hello", "-c", 32, "-d", "2s")
      in_flight = r["latency_us"]["mean"] / 1e6 * r["requests_per_s"]
      assert_operator in_flight, :>, 32 / 4.0, "mean x throughput: #{in_flight.round(1)} in flight"
      assert_operator in_flight, :<=, 32 * 1.25, "mean x throughput: #{in_flight.round(1)} in flight"
      assert_equal "closed", r["mode"]
      assert_equal 0, r["unsent"], "a closed loop has no schedule to fall behind"
      assert_equal 2, r["series"].size
      assert_equal(r["requests"], r["series"].sum { |s| s["requests"] })
    end

    # The schedule bounds what is sent: never more than the target, and a
    # server with room to spare gets the same order of magnitude. How close
    # to the target it comes is bench/engine's figure.
    def test_open_loop_follows_its_target_rate
      _nginx, base = start_nginx
      r = load_json("#{base}/hello", "-c", 16, "-d", "3s", "--rate", 3000)
      assert_equal "open", r["mode"]
      assert_equal 3000.0, r["target_rate_per_s"]
      assert_operator r["requests"], :<=, (3000 * 3) + 16, "no more than scheduled"
      assert_operator r["requests"], :>, 3000 * 3 / 10, "the same order of magnitude as scheduled"
      assert_operator r["requests"] + r["unsent"], :<=, (3000 * 3) + 16, "sent or not, no more than scheduled"
      assert_equal 0, errors_total(r)
    end

    def test_warmup_is_applied_but_not_counted
      _nginx, base = start_nginx
      r = load_json("#{base}/hello", "-c", 4, "-d", "1s", "--warmup", "1s", "--rate", 1000)
      assert_equal 1.0, r["duration_s"], "the counted window, warmup left out"
      assert_equal 1000, r["window_requests"]["total"], "the counted second's requests: the 1000 scheduled in it"
      # responses counted by when they complete: at most the second's own and
      # what a late client still owed from the warm-up (a loaded machine)
      assert_operator r["requests"], :<=, 2000, "never more than the two seconds' schedule"
      assert_operator r["requests"], :>, 1000 / 10
      assert_includes (1000 / 10)..1000, r["warmup_requests"], "the warm-up's responses, counted apart: at most its 1000 due"
      assert_operator r["requests"] + r["warmup_requests"], :<=, 2000, "each response counted once"
      assert_includes 0.0..(r["threads"] * r["elapsed_s"]), r["client_cpu"]["wait_s"], "its threads' wait for a CPU, in seconds"
      assert_operator r["elapsed_s"], :>=, 2.0, "the warmup second ran first"
    end

    # Loads that must begin together (a duet) are given one instant: the load
    # waits for it, then runs its warm-up and window; one that starts after
    # the instant begins at once and says how late it was.
    def test_start_at_begins_the_load_at_the_instant_given_and_says_how_late_it_was
      _nginx, base = start_nginx
      started_at = Time.now.to_f
      r = load_json("#{base}/hello", "-c", 2, "-d", "200ms", "--start-at", format("%.6f", started_at + 1.5))
      assert_operator Time.now.to_f - started_at, :>=, 1.7, "the 1.5 s to the instant, then the 0.2 s window"
      assert_operator r["requests"], :>, 0
      assert_operator r["start_late_s"], :>=, 0
      late = load_json("#{base}/hello", "-c", 2, "-d", "200ms", "--start-at", format("%.6f", Time.now.to_f - 5))
      assert_operator late["start_late_s"], :>=, 5.0, "an instant already past: begun at once, 5 s and more late"
      refute load_json("#{base}/hello", "-c", 2, "-n", 10).key?("start_late_s"), "no instant asked, none reported"
    end

    # Loads begun together count the same span of time: an engine that began
    # late cuts its warm-up and, past it, its window's beginning, never
    # shifts its window (a duet's late partner would count time alone at its
    # end). Begun 1 s after its instant with 0.5 s of warm-up, what is left
    # of its 3 s window is at most 2.5 s.
    def test_a_load_begun_late_keeps_its_window_where_the_instant_put_it
      _nginx, base = start_nginx
      r = load_json("#{base}/hello", "-c", 2, "-d", "3s", "--warmup", "500ms", "--start-at", format("%.6f", Time.now.to_f - 1))
      assert_operator r["start_late_s"], :>=, 1.0
      assert_operator r["requests"], :>, 0
      assert_operator r["duration_s"], :<=, 2.5, "begun #{r["start_late_s"]} s late, the window counted #{r["duration_s"]} s"
    end

    # A request count, not a window: on a busy machine opening 10,000
    # connections may take longer than any short window.
    def test_ten_thousand_connections_in_under_64_mb
      _nginx, base = start_nginx(worker_connections: 12_000)
      r = load_json("#{base}/hello", "-c", 10_000, "-t", 2, "-n", 20_000, "--timeout", "30s")
      assert_equal 0, errors_total(r)
      assert_equal 20_000, r["requests"]
      assert_operator r["max_rss_bytes"], :<, 64 * 1024 * 1024
    end

    def test_nginx_over_a_unix_socket
      sock = File.join(tmpdir, "nginx.sock")
      _nginx, base = start_nginx(unix: sock)
      r = load_json("#{base}/hello", "-c", 4, "-n", 1000, "-m", "HEAD")
      assert_equal({ "200" => 1000 }, r["status_counts"])
      assert_equal "unix", r["transport"]
      assert_equal 0, errors_total(r)
    end

    def test_the_json_records_the_exact_arguments_and_every_field
      _nginx, base = start_nginx
      args = ["#{base}/hello", "-c", "3", "-t", "2", "-n", "100", "-H", "X-Test: 1"]
      r = load_json(*args)
      assert_equal [BINARY, "--json", *args], r["args"]
      %w[connections threads mode duration_s requests bytes requests_per_s bytes_per_s reconnects errors
         status_counts latency_us histogram series client_cpu warnings].each { |k| assert r.key?(k), k }
      assert_equal %w[p50 p75 p90 p99 p99_9 p99_99].sort, (r["latency_us"].keys & %w[p50 p75 p90 p99 p99_9 p99_99]).sort
      assert_equal 2, r["threads"]
      assert_operator r["latency_us"]["min"], :<=, r["latency_us"]["p50"]
      assert_operator r["latency_us"]["p50"], :<=, r["latency_us"]["max"]
    end

    def test_the_human_summary_reads_like_wrk
      _nginx, base = start_nginx
      out, _err, status, = load_raw("#{base}/hello", "-c", 2, "-d", "1s")
      assert status.success?
      assert_match(%r{^Requests/sec: +\d+}, out)
      assert_match(/Latency Distribution/, out)
      assert_match(/Errors: connect 0, read 0, write 0, timeout 0, malformed 0, status 0, check 0/, out)
    end
  end
end
