# frozen_string_literal: true

require "test_helper"
require "yaml"

module Rackbench
  # Numbers, ports and paths out of range are one error naming the file, the
  # line and the key; a port never reaches a proxy's config file unchecked.
  class SuiteRangesTest < Minitest::Test
    # Loads a suite with extra keys; returns the error and the line of the first line matching line_pattern.
    def refused(extra, line_pattern)
      path = write_suite(extra)
      error = assert_raises(ConfigError) { Suite.load(path) }
      [error.message, "#{path}:#{File.readlines(path).index { |l| l.match?(line_pattern) } + 1}:"]
    end

    def test_durations_must_be_finite_and_within_a_day
      { "duration_s" => Float::INFINITY, "warmup_s" => -1, "timeout_s" => 0, "ready_timeout_s" => 100_000,
        "drain_timeout_s" => -0.5 }.each do |key, value|
        message, where = refused({ key => value }, /^#{key}:/)
        low = %w[warmup_s drain_timeout_s].include?(key) ? "from 0" : "above 0"
        assert_equal "#{where} #{key} must be a finite number of seconds #{low} up to 86400, got #{value.inspect}", message
      end
    end

    def test_counts_must_be_whole_and_bounded
      message, where = refused({ "requests" => 0 }, /^requests:/)
      assert_equal "#{where} requests must be a whole number from 1 to 1000000000, got 0", message
      message, where = refused({ "client_threads" => 1000 }, /^client_threads:/)
      assert_equal "#{where} client_threads must be a whole number from 1 to 256, got 1000", message
      message, where = refused({ "concurrency" => [2, 200_000] }, /^- 200000/)
      assert_equal "#{where} concurrency.1 must be a whole number from 1 to 100000, got 200000", message
      message, where = refused({ "rate" => Float::NAN }, /^rate:/)
      assert_match(/\A#{Regexp.escape(where)} rate must be a finite number of requests per second above 0, got NaN\z/, message)
    end

    def test_ports_of_servers_and_their_proxies_are_tcp_ports
      message, where = refused({ "servers" => [{ "server" => "puma", "port" => 99_999 }] }, /port: 99999/)
      assert_equal "#{where} servers.0.port must be a TCP port, a whole number from 1 to 65535, got 99999", message
      evil = "8080; include /etc/passwd"
      message, where = refused({ "servers" => [{ "server" => "puma", "proxy" => { "proxy" => "nginx", "port" => evil } }] },
                               /port: 8080; include/)
      assert_equal "#{where} servers.0.proxy.port must be a TCP port, a whole number from 1 to 65535, got #{evil.inspect}",
                   message
    end

    def test_a_proxy_refuses_a_port_that_is_not_one_before_writing_its_config
      error = assert_raises(ConfigError) { Proxies.fetch("nginx").new("proxy" => "nginx", "port" => "80; evil").validate! }
      assert_equal "proxy nginx: \"port\" must be a TCP port, a whole number from 1 to 65535, got \"80; evil\"", error.message
      error = assert_raises(ConfigError) { Servers.fetch("puma").new("server" => "puma", "port" => 0).validate! }
      assert_equal "server puma: \"port\" must be a TCP port, a whole number from 1 to 65535, got 0", error.message
    end

    def test_request_paths_have_no_spaces_or_control_characters
      message, where = refused({ "endpoints" => ["/hello world"] }, %r{^- "?/hello world})
      assert_equal "#{where} endpoints.0 must not contain spaces or control characters, got \"/hello world\"", message
      message, where = refused({ "endpoints" => [{ "path" => "/a\r\nX-Evil: 1" }] }, /path:/)
      assert_equal "#{where} endpoints.0.path must not contain spaces or control characters, got \"/a\\r\\nX-Evil: 1\"",
                   message
    end

    def test_smoke_and_scale_values_and_command_line_overrides_are_checked_too
      message, where = refused({ "smoke" => { "duration_s" => 0 } }, /duration_s: 0/)
      assert_equal "#{where} smoke.duration_s must be a finite number of seconds above 0 up to 86400, got 0", message
      message, where = refused({ "scale" => { "concurrency" => { 2 => 0 } } }, /2: 0/)
      assert_equal "#{where} scale.concurrency.2 must be a whole number from 1 to 100000, got 0", message
      error = assert_raises(ConfigError) { Suite.load(write_suite, overrides: { "duration_s" => -1.0 }) }
      assert_match "(command line).duration_s must be a finite number of seconds above 0 up to 86400, got -1.0", error.message
    end

    def test_every_built_in_suite_is_within_range_as_written_smoked_and_scaled
      Suite.builtin_names.each do |name|
        [{}, { "smoke" => true }, { "scale" => true }].each { |o| Suite.load(name, overrides: o) }
      end
    end
  end
end
