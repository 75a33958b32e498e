# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The drain's wait for neighbours: real processes, one spinning, one asleep.
  class DrainTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @supervisor.stop_all
      super
    end

    # The spinner gets a high priority (root may), so a busy machine cannot starve it into looking idle.
    def start(code, nice: 0)
      @supervisor.spawn(["nice", "-n", nice.to_s, RbConfig.ruby, "-e", code], name: "neighbour", log_path: nil).pid
    end

    def drain = Drain.new(nil, path: "/hello", timeout_s: 1)

    def test_an_idle_neighbour_is_not_waited_for
      sleeper = start("sleep 60")
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      assert_nil drain.wait_for_neighbours([sleeper])
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, Drain::NEIGHBOUR_WAIT_S
    end

    def test_a_neighbour_that_keeps_spinning_is_reported_with_its_cpu_share_after_the_wait
      spinner = start("loop { }", nice: Process.uid.zero? ? -10 : 0)
      share = drain.wait_for_neighbours([spinner])
      assert share, "a spinning neighbour is busy"
      assert_operator share, :>, Drain::IDLE_CPU_SHARE
    end

    def test_no_neighbours_no_wait
      assert_nil drain.wait_for_neighbours([])
    end
  end
end
