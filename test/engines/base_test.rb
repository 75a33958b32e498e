# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What every engine shares: a Load's defaults and deadline, slow clients
  # from a suite, and what an engine refuses before it runs.
  class EnginesBaseTest < Minitest::Test
    def load(**given) = Engines::Load.new(target: Target.tcp(1), concurrency: 10, duration_s: 5, **given)

    def test_a_load_defaults_to_one_thread_keep_alive_and_a_10_s_timeout
      plain = load
      assert_equal [1, 1, 0, 10, true], [plain.threads, plain.seed, plain.warmup_s, plain.timeout_s, plain.keepalive]
      refute load(keepalive: false).keepalive
    end

    def test_the_deadline_is_the_run_plus_warm_up_a_timeout_and_a_margin
      assert_equal 5 + 2 + 10 + 30, load(warmup_s: 2).deadline_s
      # a request count: every round of the connections taking the whole timeout
      assert_equal (100 / 10 * 10) + 0 + 10 + 30, load(requests: 100).deadline_s
    end

    def test_slow_clients_come_from_the_suite_only_when_it_asks_for_some
      assert_nil Engines::SlowClients.from_suite({ "slow_clients" => 0 })
      slow = Engines::SlowClients.from_suite({ "slow_clients" => 20, "slow_read_bytes_per_s" => 4000 })
      assert_equal [20, nil, 4000], [slow.connections, slow.send_bytes_per_s, slow.read_bytes_per_s]
    end

    def test_an_engine_refuses_what_it_cannot_send_before_it_runs
      ab = Engines.fetch("ab").new
      error = assert_raises(ConfigError) { ab.validate!(load(target: Target.unix("/tmp/x.sock", "/"))) }
      assert_equal "engine ab cannot target a Unix socket; use engine: native", error.message
      error = assert_raises(ConfigError) { ab.validate!(load(slow_clients: Engines::SlowClients.new(connections: 2))) }
      assert_equal "engine ab: slow_clients need engine: native", error.message
    end
  end
end
