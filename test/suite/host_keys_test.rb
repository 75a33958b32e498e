# frozen_string_literal: true

require "test_helper"

module Rackbench
  # hosts:, server_host:, load_hosts: and a server's host: in a suite file.
  class SuiteHostKeysTest < Minitest::Test
    HOSTS = { "app" => { "ssh" => "bench@10.0.0.2" }, "load1" => { "ssh" => "bench@10.0.0.3", "port" => 2222 } }.freeze

    def suite(extra)
      base = { "endpoints" => ["/hello"], "servers" => [{ "server" => "puma" }] }
      Suite.new(base.merge(extra).to_yaml, path: "across.yml")
    end

    def error_of(extra) = assert_raises(ConfigError) { suite(extra) }.message

    def test_a_suite_with_hosts_and_roles_reads
      s = suite("hosts" => HOSTS, "server_host" => "app", "load_hosts" => ["load1"])
      assert_equal ["load1"], s["load_hosts"]
      assert_equal "app", s["server_host"]
    end

    def test_roles_without_hosts_name_the_key
      assert_match(/across.yml:\d+: load_hosts names a host, but the suite has no hosts: map/, error_of("load_hosts" => ["x"]))
    end

    def test_an_unknown_host_names_the_key_and_the_known_hosts
      message = error_of("hosts" => HOSTS, "server_host" => "app", "load_hosts" => %w[load1 load9])
      assert_match(/load_hosts.1 "load9" is not in hosts: \(app, load1\)/, message)
    end

    def test_a_host_needs_an_ssh_destination_and_known_keys
      assert_match "hosts.app needs ssh:", error_of("hosts" => { "app" => { "user" => "x" } })
      assert_match "hosts.app.password unknown key", error_of("hosts" => { "app" => { "ssh" => "a", "password" => "x" } })
    end

    def test_load_hosts_need_the_servers_on_a_host_and_the_native_engine
      assert_match "needs every server on a host", error_of("hosts" => HOSTS, "load_hosts" => ["load1"])
      assert_match "engine: native",
                   error_of("hosts" => HOSTS, "server_host" => "app", "load_hosts" => ["load1"], "engine" => "wrk")
    end

    def test_a_remote_server_listens_on_tcp
      message = error_of("hosts" => HOSTS, "servers" => [{ "server" => "puma", "host" => "app", "bind" => "unix" }])
      assert_match "servers.0.bind a server on host app listens on TCP", message
    end

    def test_a_proxy_runs_on_its_servers_host_and_listens_on_tcp_there
      behind = { "server" => "puma", "instances" => 2, "proxy" => { "proxy" => "nginx" } }
      assert_equal "app", suite("hosts" => HOSTS, "server_host" => "app", "servers" => [behind])["server_host"]
      message = error_of("hosts" => HOSTS, "server_host" => "app",
                         "servers" => [behind.merge("proxy" => { "proxy" => "nginx", "bind" => "unix" })])
      assert_match "servers.0.proxy.bind a proxy on host app listens on TCP", message
    end

    def test_app_sync_is_a_yes_or_no
      assert suite("hosts" => HOSTS, "server_host" => "app", "app_sync" => true)["app_sync"]
      assert_match "app_sync", error_of("hosts" => HOSTS, "server_host" => "app", "app_sync" => "yes")
    end
  end
end
