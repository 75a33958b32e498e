# frozen_string_literal: true

require "test_helper"

module Rackbench
  class TargetTest < Minitest::Test
    def test_an_http_url_on_loopback_is_accepted
      target = Target.parse("http://127.0.0.1:9292/hello?x=1")
      assert_equal ["127.0.0.1", 9292, "/hello?x=1"], [target.host, target.port, target.path]
      refute target.unix?
    end

    def test_a_unix_target_keeps_its_socket_and_path
      target = Target.parse("unix:/tmp/app.sock:/hello")
      assert target.unix?
      assert_equal ["/tmp/app.sock", "/hello"], [target.socket_path, target.path]
      assert_equal "unix:/tmp/app.sock:/hello", target.url
    end

    def test_ipv6_loopback_is_local
      assert_equal "http://[::1]:80/", Target.parse("http://[::1]:80/").url
    end

    def test_an_address_off_this_machine_is_refused_without_allow_remote
      error = assert_raises(ConfigError) { Target.parse("http://10.1.2.3:80/") }
      assert_match "not on this machine", error.message
      assert_equal "10.1.2.3", Target.parse("http://10.1.2.3:80/", allow_remote: true).host
    end

    def test_a_host_name_other_than_localhost_is_refused_without_a_lookup
      error = assert_raises(ConfigError) { Target.parse("http://example.invalid/") }
      assert_match "not a loopback address", error.message
    end

    def test_an_unknown_scheme_is_refused
      assert_raises(ConfigError) { Target.parse("ftp://127.0.0.1/") }
    end
  end
end
