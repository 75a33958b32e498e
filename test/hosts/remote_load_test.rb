# frozen_string_literal: true

require "test_helper"

module Rackbench
  # How RemoteLoad divides one cell's load between load hosts.
  class RemoteLoadTest < Minitest::Test
    def remote_load = Hosts::RemoteLoad.new(Engines.fetch("native").new, nil)

    def load(**over)
      Engines::Load.new(target: Target.tcp(9292), concurrency: 7, threads: 3, duration_s: 2, **over)
    end

    def test_connections_and_threads_split_as_evenly_as_whole_numbers_allow
      parts = remote_load.split(load, 2)
      assert_equal [4, 3], parts.map(&:concurrency)
      assert_equal [2, 1], parts.map(&:threads)
      assert_equal [2, 2], parts.map(&:duration_s)
    end

    def test_an_open_loop_rate_and_a_request_count_split_with_the_connections
      parts = remote_load.split(load(concurrency: 4, rate: 1000, requests: 101), 2)
      assert_equal [500.0, 500.0], parts.map(&:rate)
      assert_equal [51, 50], parts.map(&:requests)
    end

    def test_a_host_whose_load_thread_used_a_whole_core_is_warned_about
      hosts = [{ "host" => "load1", "client_cpu" => { "max_thread_share" => 0.97 } },
               { "host" => "load2", "client_cpu" => { "max_thread_share" => 0.4 } }]
      warnings = Hosts::RemoteLoad.saturation_warnings(hosts)
      assert_equal 1, warnings.size
      assert_match "load host load1: client CPU saturated (a load thread at 97 % of a core)", warnings.first
    end

    def test_fewer_connections_than_hosts_is_a_clear_error
      error = assert_raises(ConfigError) { remote_load.split(load(concurrency: 1), 2) }
      assert_match "concurrency 1 is below the 2 load hosts", error.message
    end
  end
end
