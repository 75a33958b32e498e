# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Hosts
    # A Connection opens whole or not at all: a host that refuses ssh raises
    # an error naming the host, with ssh's own words, and leaves neither a
    # master process nor its socket folder behind. (Commands over an open
    # master are tested on a lab of hosts: test/hosts/across_hosts_test.rb.)
    class ConnectionTest < Minitest::Test
      def setup
        skip "ssh (openssh-client) is not installed" unless Executable.available?("ssh")
        @supervisor = Supervisor.new
        @tmp_before = ENV.fetch("TMPDIR", nil)
        ENV["TMPDIR"] = FileUtils.mkdir_p(File.join(tmpdir, "tmp")).first # where the socket folder goes
      end

      def teardown
        ENV["TMPDIR"] = @tmp_before
        @supervisor&.stop_all
        assert_nothing_left
        super
      end

      # A loopback port nothing listens on.
      def refused_port = Servers::Base.free_port

      def test_a_host_that_refuses_ssh_raises_naming_the_host_and_leaves_no_master_and_no_socket_folder
        host = Host.from_config("refuser", { "ssh" => "127.0.0.1", "port" => refused_port })
        error = assert_raises(ServiceError) { Connection.new(host, supervisor: @supervisor, dir: tmpdir).open }
        assert_match(/\Ahost refuser: ssh 127\.0\.0\.1 failed/, error.message)
        assert_match(/refused/i, error.log_tail, "ssh's own words come with it")
        assert_empty @supervisor.children.select(&:alive?), "the master is stopped"
        assert_empty Dir.children(ENV.fetch("TMPDIR")), "the socket folder is removed"
      end

      def test_the_master_logs_into_the_run_folder_under_the_hosts_name
        host = Host.from_config("refuser", { "ssh" => "127.0.0.1", "port" => refused_port })
        assert_raises(ServiceError) { Connection.new(host, supervisor: @supervisor, dir: tmpdir).open }
        assert_match(/refused/i, File.read(File.join(tmpdir, "ssh-refuser.log")))
      end
    end
  end
end
