# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # rackbench-load against puma serving the bundled rack app, over TCP and
  # over a Unix socket (which wrk and ab cannot target), directly and through
  # the `native` engine adapter.
  class NativeAgainstPumaTest < Minitest::Test
    include EngineHelpers

    # puma 8.0.2 now and then (about once in 300,000 responses here) sends a
    # response without its first lines, seen in strace of the engine's reads;
    # the engine rightly counts it as malformed. Nothing else may go wrong.
    def assert_no_errors_but_a_rare_truncated_response(result)
      assert_equal errors_total(result), result["errors"]["malformed"], result["errors"].inspect
      assert_operator errors_total(result), :<=, 2, result["errors"].inspect
    end

    def test_puma_over_tcp
      _puma, base = start_puma
      r = load_json("#{base}/hello", "-c", 8, "-n", 2000, "-d", "20s", "--expect-body", "hello world")
      assert_equal({ "200" => 2000 }, r["status_counts"])
      assert_no_errors_but_a_rare_truncated_response(r)
    end

    def test_puma_over_a_unix_socket_with_404s_counted
      sock = File.join(tmpdir, "puma.sock")
      _puma, base = start_puma(unix: sock)
      r = load_json("#{base}/hello", "-c", 4, "-n", 1000, "-d", "20s", "--path", "/hello", "--path", "/nope")
      # issued in turn; the last few in flight when -n is reached may be either
      assert_equal 1000, r["status_counts"].values.sum
      assert_in_delta 500, r["status_counts"]["404"], 4
      assert_no_errors_but_a_rare_truncated_response(r)
    end

    def test_the_native_engine_adapter_returns_the_common_result_shape
      sock = File.join(tmpdir, "puma.sock")
      start_puma(unix: sock)
      EngineHelpers.build!
      engine = Engines.fetch("native").new
      assert engine.available?
      assert engine.warmup_in_run?
      load = Engines::Load.new(target: Target.unix(sock, "/hello"), concurrency: 4, duration_s: 1, warmup_s: 0.5,
                               timeout_s: 2)
      result = engine.run(load, supervisor: supervisor, dir: tmpdir)
      assert_equal "native", result.engine
      assert_operator result.requests, :>, 100
      # see assert_no_errors_but_a_rare_truncated_response
      assert_operator result.error_count, :<=, result.errors["malformed"], result.errors.inspect
      assert_operator result.error_count, :<=, result.requests / 1000, result.errors.inspect
      assert_equal result.requests, result.status_counts["200"]
      assert_operator result.duration_s, :>=, load.duration_s * 0.99, "the window lasts what was asked"
      assert_operator result.duration_s, :<, load.duration_s + load.warmup_s, "the warm-up is not counted"
      assert_includes result.command, "--warmup"
      assert_equal "unix:#{sock}:/hello", result.command.last
      %w[mean p50 p90 p99 max].each { |k| assert result.latency_us[k], k }
      assert_equal 1, result.series.size
      refute_empty result.histogram
    end
  end
end
