# frozen_string_literal: true

require "test_helper"
require_relative "netns_lab"

module Rackbench
  # The native engine put on a load host (a network namespace with its own
  # sshd): copied when the architecture matches, built there otherwise. One
  # lab serves both tests, each installing into a cache folder of its own.
  class EngineInstallTest < Minitest::Test
    class << self
      attr_accessor :lab
    end

    def setup
      why = NetnsLab.unavailable_reason
      if why
        warn "EngineInstallTest skipped: #{why}"
        skip why
      end
      @lab = self.class.lab ||= NetnsLab.new(%w[load1]).start.tap { |lab| Minitest.after_run { lab.stop } }
      @supervisor = Supervisor.new
      host = Hosts::Host.from_config("load1", { "ssh" => "root@#{@lab.address("load1")}", "ssh_config" => @lab.ssh_config })
      @conn = @lab.in_control_namespace { Hosts::Connection.new(host, supervisor: @supervisor, dir: tmpdir).open }
    end

    def teardown
      @conn&.close
      @supervisor&.stop_all
      @lab&.clear
      super
    end

    def install(**options)
      @lab.in_control_namespace { Hosts::EngineInstall.new(@conn, cache_dir: File.join(@lab.dir, "cache-#{name}"), **options).call }
    end

    def test_a_host_of_the_same_architecture_gets_a_copy_and_a_second_run_finds_it
      first = install
      assert_equal "copied", first["how"]
      assert_equal `#{Hosts::EngineInstall::BINARY} --version`.strip, first["version"]
      assert FileUtils.compare_file(Hosts::EngineInstall::BINARY, first["path"])
      mtime = File.mtime(first["path"])
      assert_equal first, install
      assert_equal mtime, File.mtime(first["path"]), "installed once"
    end

    def test_a_host_of_another_architecture_builds_it_from_the_sources
      built = install(local_arch: "another-arch")
      assert_equal "built", built["how"]
      assert_match(/\Arackbench-load \S+\z/, built["version"])
      refute_equal File.dirname(built["path"]), File.dirname(install["path"]), "a build and a copy are kept apart"
    end
  end
end
