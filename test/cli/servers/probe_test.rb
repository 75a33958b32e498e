# frozen_string_literal: true

require "test_helper"
require "json"
require "rackbench/cli"
require "rackbench/cli/servers"

module Rackbench
  # `rackbench servers --probe`'s cache: an outcome is kept per adapter and
  # version, and a server that never starts is "fails" with its reason
  # (test/targets/servers/servers_command_test.rb probes real servers).
  class CliServersProbeTest < Minitest::Test
    Probe = CLI::Servers::Probe

    # An adapter whose every start is refused before anything is spawned.
    class Refusing
      attr_reader :starts

      def initialize = @starts = 0
      def server_name = "refusing"
      def version = "1.0"

      def new(_config)
        @starts += 1
        raise ConfigError, "server refusing: cannot run here"
      end
    end

    def cache_path = File.join(tmpdir, "cache", "servers-probe.json")

    def test_a_server_that_never_starts_fails_after_every_attempt_with_its_reason
      adapter = Refusing.new
      outcome = Probe.new(cache_path: cache_path).server(adapter)
      assert_equal ["fails", "server refusing: cannot run here", "1.0"], outcome.values_at("status", "reason", "version")
      assert_equal Probe::ATTEMPTS, adapter.starts
      assert_equal outcome, JSON.parse(File.read(cache_path))["server/refusing"], "kept for `rackbench servers`"
    end

    def test_a_cached_outcome_counts_only_for_the_version_installed_now
      Probe.new(cache_path: cache_path).server(Refusing.new)
      cached = Probe.new(cache_path: cache_path)
      assert_equal "fails", cached.outcome("server", Refusing.new, "refusing")["status"]
      newer = Refusing.new
      newer.define_singleton_method(:version) { "2.0" }
      assert_nil cached.outcome("server", newer, "refusing"), "a new version is probed again"
    end

    def test_an_unreadable_cache_is_an_empty_one
      FileUtils.mkdir_p(File.dirname(cache_path))
      File.write(cache_path, "{not json")
      assert_equal({}, Probe.new(cache_path: cache_path).cache)
    end
  end
end
