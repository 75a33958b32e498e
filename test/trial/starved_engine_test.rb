# frozen_string_literal: true

require "test_helper"
require "rackbench/trial/starved_engine"

module Rackbench
  # When a window that counted requests was the load generator's starvation,
  # not the server's rate, from known figures: the start of ab_test's 200 ms
  # app measured by hand with its engine pinned to a CPU other runs'
  # servers held (6 req/s; its engine waited 1.30 s for a CPU and ran
  # 0.03 s), the same version's usual start, an engine busy on its own, and
  # an engine that reports no CPU figures.
  class StarvedEngineTest < Minitest::Test
    def result(wait_s:, used_s:)
      Result.new(requests: 6, duration_s: 1.0,
                 client_cpu: { "user_s" => used_s * 0.2, "sys_s" => used_s * 0.8, "wait_s" => wait_s })
    end

    def starved?(result, threads: 1, cpus: 1) = StarvedEngine.new(result, length_s: 1.5, threads: threads, cpus: cpus).starved?

    def test_an_engine_that_waited_most_of_its_run_and_hardly_ran_was_starved
      assert starved?(result(wait_s: 1.30, used_s: 0.032))
      assert_in_delta 1.30, StarvedEngine.new(result(wait_s: 1.30, used_s: 0.032), length_s: 1.5, threads: 1, cpus: 1).wait_s
    end

    def test_the_usual_waits_of_a_busy_machine_are_not_starvation
      refute starved?(result(wait_s: 0.26, used_s: 0.03))
    end

    # Two threads on one CPU, both running: each waits while the other runs.
    def test_an_engine_busy_with_its_own_threads_is_not_starved
      refute starved?(result(wait_s: 1.4, used_s: 1.45), threads: 2)
    end

    # The waits are summed over the engine's threads: four that waited 1.30 s in all waited 0.33 s each.
    def test_the_wait_is_counted_per_engine_thread
      refute starved?(result(wait_s: 1.30, used_s: 0.032), threads: 4)
    end

    def test_without_the_engines_cpu_figures_nothing_is_called_starved
      refute starved?(Result.new(requests: 6, duration_s: 1.0))
    end
  end
end
