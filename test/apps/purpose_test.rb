# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Each endpoint does the kind of work it is named for, shown by measuring
  # the plain Rack app on a real puma: waits overlap on threads, fibonacci
  # burns CPU in proportion to its calls, and ?cache=1 spares the prime sum.
  class PurposeTest < Minitest::Test
    def supervisor = @supervisor ||= Supervisor.new

    def teardown
      @supervisor&.stop_all
      super
    end

    def serve(threads:)
      server = Servers.fetch("puma").new("server" => "puma", "threads" => threads)
      Deployment.new(server, supervisor: supervisor, dir: tmpdir, app: Apps.path("rack"), env: Apps.default_env(tmpdir)).start
    end

    def monotonic_s = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    # Seconds until all `clients` concurrent GETs of /sleep/100 are answered.
    def concurrent_sleeps_s(deployment, clients: 20)
      target = deployment.target("/sleep/100")
      started = monotonic_s
      bodies = Array.new(clients) { Thread.new { Readiness.get(target, timeout_s: 10)[2] } }.map(&:value)
      assert_equal ["slept 100 ms"] * clients, bodies
      monotonic_s - started
    end

    def test_twenty_concurrent_sleeps_of_100_ms_overlap_on_enough_threads
      elapsed_s = concurrent_sleeps_s(serve(threads: 20))
      assert_operator elapsed_s, :>=, 0.1
      assert_operator elapsed_s, :<, 1.0, "20 x 100 ms of waiting took #{elapsed_s.round(3)} s, well under 2 s"
    end

    def test_with_four_threads_the_same_sleeps_queue_in_five_rounds
      elapsed_s = concurrent_sleeps_s(serve(threads: 4))
      assert_operator elapsed_s, :>=, 0.5, "20 sleeps on 4 threads need 5 rounds of 100 ms, took #{elapsed_s.round(3)} s"
    end

    # fib(n) recursively makes 2 * F(n + 1) - 1 calls.
    def calls(number) = (2 * Apps.fibonacci(number + 1)) - 1

    def test_fibonacci_uses_cpu_time_in_proportion_to_its_calls
      deployment = serve(threads: 1)
      sampler = Sampler.new(root_pids: deployment.pids)
      cpu_s = lambda do |number, requests|
        target = deployment.target("/fibonacci/#{number}")
        Readiness.get(target) # warm: the first request loads code
        before = sampler.take.cpu_s
        requests.times { assert_equal "fibonacci(#{number}) = #{Apps.fibonacci(number)}", Readiness.get(target)[2] }
        sampler.take.cpu_s - before
      end
      small_s = cpu_s.call(24, 10)
      large_s = cpu_s.call(28, 10)
      expected = calls(28).fdiv(calls(24))
      measured = large_s / [small_s, 0.01].max
      assert_operator large_s, :>=, 0.1, "10 x fib(28) used #{large_s} s of CPU"
      assert_in_delta expected, measured, expected / 2,
                      "CPU ratio #{measured.round(2)} (#{large_s} s / #{small_s} s) tracks the calls ratio #{expected.round(2)}"
    end

    def test_primes_with_cache_1_answers_faster_than_computing_the_sum_each_time
      deployment = serve(threads: 2)
      engine = Engines.fetch("wrk").new
      rate = lambda do |path|
        assert_equal "sum of primes up to 10000 = 5736396", Readiness.get(deployment.target(path))[2]
        load = Engines::Load.new(target: deployment.target(path), concurrency: 2, duration_s: 1, timeout_s: 5)
        engine.run(load, supervisor: supervisor, dir: tmpdir).requests_per_s
      end
      computed = rate.call("/primes/10000")
      cached = rate.call("/primes/10000?cache=1")
      assert_operator cached, :>, 1.3 * computed, "cached #{cached.round} req/s vs computed #{computed.round} req/s"
    end
  end
end
