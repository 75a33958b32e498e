# frozen_string_literal: true

require "test_helper"
require "rackbench/targets/proxies/base"

module Rackbench
  # What a proxy says of the servers it can stand in front of, checked when
  # the suite is read: a balancer takes any number, a proxy of one server one.
  class ProxyBaseTest < Minitest::Test
    # A proxy in front of one server on TCP, as Thruster is.
    class Single < Proxies::Base
      NAME = "single"
      def self.max_backends = 1
      def self.unix_backends? = false
    end

    def single = Single.new("proxy" => "single")

    def test_a_balancer_takes_any_number_of_instances_on_either_transport
      entry = { "server" => "puma", "instances" => 5, "bind" => "unix", "proxy" => { "proxy" => "nginx" } }
      assert Servers.fetch("puma").new(entry).validate!
      assert_nil Proxies.fetch("nginx").max_backends
      assert_nil Proxies.fetch("nginx").new("proxy" => "nginx").backend_port, "its server listens on any free port"
    end

    def test_a_proxy_of_one_server_takes_one_and_refuses_two_in_one_clear_error
      assert_nil single.validate_backends!(1, unix: false)
      error = assert_raises(ConfigError) { single.validate_backends!(2, unix: false) }
      assert_equal "proxy single fronts at most 1 server instance, got instances: 2", error.message
    end

    def test_a_proxy_that_reaches_its_server_over_tcp_refuses_a_unix_socket
      error = assert_raises(ConfigError) { single.validate_backends!(1, unix: true) }
      assert_equal "proxy single reaches its server over TCP only; the server has bind: unix", error.message
    end

    def test_a_proxy_without_balancing_lists_no_ways_to_balance
      assert_empty Single.balances
      assert_equal %w[fair round-robin hash sticky], Proxies.fetch("lighttpd").balances
    end
  end
end
