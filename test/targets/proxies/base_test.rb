# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Proxies
    # What every proxy adapter shares: its checks (each naming its key), its
    # label, where it listens, and the config file it writes into the cell's folder.
    class BaseTest < Minitest::Test
      def nginx(config = {}) = Proxies.fetch("nginx").new({ "proxy" => "nginx" }.merge(config))

      def test_a_key_it_does_not_take_a_bad_port_and_a_bad_bind_are_each_named
        { { "balanse" => "hash" } => "balanse", { "port" => 70_000 } => "port", { "bind" => "udp" } => "bind" }.each do |bad, key|
          error = assert_raises(ConfigError) { nginx(bad).validate! }
          assert_equal key, error.key, error.message
          assert error.message.start_with?("proxy nginx: "), error.message
        end
      end

      def test_the_label_says_its_workers_and_balancing
        assert_equal "nginx x3 (round-robin)", nginx("workers" => 3).label
        assert_equal "nginx (#{Proxies.fetch("nginx").balances.last})",
                     nginx("balance" => Proxies.fetch("nginx").balances.last).label
      end

      def test_it_listens_on_its_port_a_free_one_or_a_socket_in_the_cells_folder
        assert_equal 8181, nginx("port" => 8181).bind(tmpdir).port
        assert_operator nginx.bind(tmpdir).port, :>, 0
        socket = nginx("bind" => "unix").bind(tmpdir).socket_path
        assert_match(/nginx\.sock\z/, socket)
      end

      def test_the_command_writes_its_config_into_the_folder_and_needs_a_backend
        backends = [Servers::Base::Bind.new(port: 9001), Servers::Base::Bind.new(port: 9002)]
        argv = nginx.validate!.command(bind: Servers::Base::Bind.new(port: 8080), backends: backends, dir: tmpdir)
        config = File.read(File.join(tmpdir, "nginx.conf"))
        assert_includes argv, File.join(tmpdir, "nginx.conf")
        assert_match(/127\.0\.0\.1:9001.*127\.0\.0\.1:9002/m, config)
        error = assert_raises(ConfigError) { nginx.command(bind: Servers::Base::Bind.new(port: 8080), backends: [], dir: tmpdir) }
        assert_equal "proxy nginx: no backends to balance", error.message
      end

      def test_it_refuses_more_instances_than_it_fronts_by_the_key_that_asks
        thruster = Proxies.fetch("thruster")
        error = assert_raises(ConfigError) do
          thruster.new("proxy" => "thruster").validate_backends!(thruster.max_backends + 1, unix: false)
        end
        assert_equal "instances", error.key
      end
    end
  end
end
