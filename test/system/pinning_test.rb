# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The server and the load generator on disjoint CPUs: the client on the
  # last CPU unless RACKBENCH_CLIENT_CPU names another, the server on the rest.
  class PinningTest < Minitest::Test
    def choose(cpus, env = {})
      Executable.stub(:available?, true) { Pinning.choose(enabled: true, cpus: cpus, env: env) }
    end

    def test_the_client_takes_the_last_cpu_and_the_server_the_rest
      pinning = choose([0, 1, 2, 3])
      assert_equal [[0, 1, 2], [3]], [pinning.server_cpus, pinning.client_cpus]
    end

    def test_a_named_client_cpu_leaves_the_others_to_the_server
      pinning = choose([0, 1], "RACKBENCH_CLIENT_CPU" => "0")
      assert_equal [[1], [0]], [pinning.server_cpus, pinning.client_cpus]
      assert_equal "server on CPU 1, load generator on CPU 0", pinning.to_s
    end

    def test_a_client_cpu_this_process_may_not_use_is_bad_input_naming_the_variable
      error = assert_raises(ConfigError) { choose([0, 1], "RACKBENCH_CLIENT_CPU" => "7") }
      assert_equal "RACKBENCH_CLIENT_CPU=7: not a CPU this process may run on (0,1)", error.message
      assert_raises(ConfigError) { choose([0, 1], "RACKBENCH_CLIENT_CPU" => "one") }
    end

    def test_one_cpu_or_pinning_turned_off_pins_nothing
      refute_predicate choose([0]), :enabled?
      refute_predicate Pinning.choose(enabled: false, cpus: [0, 1]), :enabled?
    end
  end
end
