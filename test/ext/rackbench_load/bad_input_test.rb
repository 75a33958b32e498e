# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # Bad input ends rackbench-load at once with one clear line on stderr and a
  # non-zero exit status; `rackbench load` passes everything through.
  class NativeBadInputTest < Minitest::Test
    include EngineHelpers

    DEFAULT_DURATION_S = 10

    def assert_refused(pattern, *args)
      out, err, status, elapsed = load_raw(*args)
      refute status.success?, "expected failure for #{args.inspect}"
      assert_empty out
      assert_equal 1, err.lines.size, err
      assert_match pattern, err
      assert_operator elapsed, :<, DEFAULT_DURATION_S, "refused before any load ran (a load lasts #{DEFAULT_DURATION_S} s)"
    end

    def test_bad_urls_and_schemes
      assert_refused(/bad URL/, "127.0.0.1:80/")
      assert_refused(/unsupported scheme https/, "https://127.0.0.1/")
      assert_refused(/bad port/, "http://127.0.0.1:http/")
      assert_refused(/no target URL/, "-c", "2")
    end

    def test_a_start_instant_that_is_not_a_unix_time
      assert_refused(/bad --start-at soon: expected a Unix time in seconds/, "--start-at", "soon", "http://127.0.0.1:1/")
      assert_refused(/bad --start-at -3/, "--start-at", "-3", "http://127.0.0.1:1/")
    end

    def test_an_unreachable_target
      port = free_port
      assert_refused(/cannot connect to 127\.0\.0\.1:#{port}: Connection refused/, "http://127.0.0.1:#{port}/")
    end

    def test_a_unix_socket_that_does_not_exist
      missing = File.join(tmpdir, "missing.sock")
      assert_refused(/unix socket #{Regexp.escape(missing)}: No such file or directory/, "unix:#{missing}:/")
    end

    def test_remote_targets_are_refused_without_a_dns_lookup
      assert_refused(/refusing non-loopback host example\.com .*--allow-remote/, "http://example.com/")
      assert_refused(/refusing non-loopback address 10\.1\.2\.3/, "http://10.1.2.3/")
    end

    def test_bad_options
      assert_refused(/bad -d soon/, "-d", "soon", "http://127.0.0.1:1/")
      assert_refused(/bad -c 0/, "-c", "0", "http://127.0.0.1:1/")
      assert_refused(/bad --rate/, "--rate", "-5", "http://127.0.0.1:1/")
      assert_refused(/unknown option --bogus/, "--bogus", "http://127.0.0.1:1/")
      assert_refused(/bad header/, "-H", "NoColon", "http://127.0.0.1:1/")
    end

    def test_rackbench_load_runs_the_engine
      EngineHelpers.build!
      _nginx, base = start_nginx
      status, out, _err = run_cli("load", "#{base}/hello", "-n", "100", "-d", "5s", "--json")
      assert_equal 0, status
      assert_equal 100, JSON.parse(out)["requests"]
      status, _out, err = run_cli("load", "unix:#{tmpdir}/none.sock:/")
      assert_equal 1, status
      assert_match(/No such file/, err)
    end
  end
end
