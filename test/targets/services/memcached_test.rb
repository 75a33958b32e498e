# frozen_string_literal: true

require_relative "services_helper"

module Rackbench
  # memcached from Debian's package, started and stopped by rackbench.
  class MemcachedTest < Minitest::Test
    include ServiceHelpers

    def setup = require "dalli"

    def round_trip(address)
      client = Dalli::Client.new(address, protocol: :meta, raw: true, compress: false)
      client.set("rackbench:test", "x" * 1024)
      client.get("rackbench:test")
    ensure
      client&.close
    end

    def test_it_stores_and_returns_values_on_loopback
      service, env = start_service("service" => "memcached", "memory_mb" => 16)
      address = env.fetch("RACKBENCH_MEMCACHED")
      assert_match(/\A127\.0\.0\.1:\d+\z/, address)
      assert_equal "x" * 1024, round_trip(address)
      assert_includes service.commands.first, "16"
    end

    def test_it_serves_a_unix_socket_and_leaves_nothing_behind_when_stopped
      service, env = start_service("service" => "memcached", "bind" => "unix")
      path = env.fetch("RACKBENCH_MEMCACHED")
      assert File.socket?(path)
      assert_equal "x" * 1024, round_trip(path)
      assert_match(/\AVERSION \d/, service.version_line)
      service.stop(supervisor)
      assert_nothing_left
    end

    def test_bad_keys_and_values_are_config_errors_naming_them
      error = assert_raises(ConfigError) { Services.fetch("memcached").new("service" => "memcached", "threads" => 0).validate! }
      assert_includes error.message, "\"threads\""
      error = assert_raises(ConfigError) { Services.fetch("memcached").new("service" => "memcached", "bind" => "udp").validate! }
      assert_includes error.message, "bind"
    end
  end
end
