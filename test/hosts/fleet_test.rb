# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Hosts
    # The hosts a run uses: none without hosts:; load goes only to a
    # declared host's address or loopback; and a fleet opens whole or not at
    # all: a host that refuses ssh stops the run before anything starts,
    # with no connection left open. (A fleet that connects is tested on a lab
    # of hosts: test/hosts/across_hosts_test.rb.)
    class FleetTest < Minitest::Test
      def setup
        @supervisor = Supervisor.new
      end

      def teardown
        @supervisor.stop_all
        assert_nothing_left
        super
      end

      def suite(extra = {}) = Suite.load(write_suite(extra))

      # A loopback port nothing listens on.
      def refused_port = Servers::Base.free_port

      def hosts_suite(port)
        suite("hosts" => { "app" => { "ssh" => "bench@127.0.0.1", "port" => port, "address" => "10.1.2.3" } },
              "server_host" => "app")
      end

      def test_a_suite_without_hosts_has_no_fleet
        assert_nil Fleet.start(suite, supervisor: @supervisor, dir: tmpdir)
      end

      def test_load_goes_to_a_declared_hosts_address_or_loopback_and_nowhere_else
        fleet = Fleet.new(hosts_suite(refused_port), supervisor: @supervisor, dir: tmpdir)
        target = ->(host) { Target.new(host: host, port: 80, allow_remote: true) }
        assert_nil fleet.check_target!(target.call("10.1.2.3"))
        assert_nil fleet.check_target!(target.call("127.0.0.9"))
        error = assert_raises(ConfigError) { fleet.check_target!(target.call("10.1.2.4")) }
        assert_equal "target 10.1.2.4 is none of the suite's hosts (10.1.2.3) nor loopback: load goes only to declared hosts",
                     error.message
      end

      def test_a_host_that_refuses_ssh_stops_the_fleet_with_no_connection_left_open
        skip "ssh (openssh-client) is not installed" unless Executable.available?("ssh")
        error = assert_raises(ServiceError) { Fleet.start(hosts_suite(refused_port), supervisor: @supervisor, dir: tmpdir) }
        assert_match(/\Ahost app: ssh bench@127\.0\.0\.1 failed/, error.message)
        assert_empty @supervisor.children.select(&:alive?)
      end

      def test_provenance_names_each_hosts_destination_and_address
        fleet = Fleet.new(hosts_suite(refused_port), supervisor: @supervisor, dir: tmpdir)
        assert_equal({ "app" => { "ssh" => "bench@127.0.0.1", "address" => "10.1.2.3" } }, fleet.to_h)
      end
    end
  end
end
