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

    SLEEP_MS = 300
    CLIENTS = 20

    # Seconds until all CLIENTS concurrent GETs of /sleep/SLEEP_MS are answered.
    def concurrent_sleeps_s(deployment)
      target = deployment.target("/sleep/#{SLEEP_MS}")
      started = monotonic_s
      bodies = Array.new(CLIENTS) { Thread.new { Readiness.get(target, timeout_s: 30)[2] } }.map(&:value)
      assert_equal ["slept #{SLEEP_MS} ms"] * CLIENTS, bodies
      monotonic_s - started
    end

    # One at a time the sleeps take CLIENTS x SLEEP_MS (6 s); overlapped, one
    # SLEEP_MS. The bound sits at a quarter of one at a time: 5 x the ideal.
    def test_twenty_concurrent_sleeps_overlap_on_enough_threads
      elapsed_s = concurrent_sleeps_s(serve(threads: CLIENTS))
      one_at_a_time_s = CLIENTS * SLEEP_MS / 1000.0
      assert_operator elapsed_s, :>=, SLEEP_MS / 1000.0
      assert_operator elapsed_s, :<, one_at_a_time_s / 4,
                      "#{CLIENTS} x #{SLEEP_MS} ms of waiting took #{elapsed_s.round(3)} s, " \
                      "against #{one_at_a_time_s} s one at a time"
    end

    # A lower bound only: queueing can only make it longer.
    def test_with_four_threads_the_same_sleeps_queue_in_five_rounds
      elapsed_s = concurrent_sleeps_s(serve(threads: 4))
      rounds_s = CLIENTS / 4 * SLEEP_MS / 1000.0
      assert_operator elapsed_s, :>=, rounds_s, "#{CLIENTS} sleeps on 4 threads need 5 rounds, took #{elapsed_s.round(3)} s"
    end

    # fib(n) recursively makes 2 * F(n + 1) - 1 calls.
    def calls(number) = (2 * Apps.fibonacci(number + 1)) - 1

    # CPU seconds the deployment spends answering `requests` GETs of path.
    def cpu_s(deployment, path, requests, expected_body)
      sampler = Sampler.new(root_pids: deployment.pids)
      target = deployment.target(path)
      assert_equal expected_body, Readiness.get(target)[2] # warm: the first request loads code
      before = sampler.take.cpu_s
      requests.times { Readiness.get(target) }
      sampler.take.cpu_s - before
    end

    # CPU time, not wall time: another process on the machine slows the
    # server down but does not add to its CPU seconds. The ratio of calls is
    # ~6.9; the bounds are a factor of 3 either way.
    def test_fibonacci_uses_cpu_time_that_grows_with_its_calls
      deployment = serve(threads: 1)
      fib = ->(number) { cpu_s(deployment, "/fibonacci/#{number}", 10, "fibonacci(#{number}) = #{Apps.fibonacci(number)}") }
      small_s = fib.call(24)
      large_s = fib.call(28)
      expected = calls(28).fdiv(calls(24))
      measured = large_s / [small_s, 0.01].max
      assert_operator large_s, :>=, 0.1, "10 x fib(28) used #{large_s} s of CPU"
      assert_includes (expected / 3)..(expected * 3), measured,
                      "CPU ratio #{measured.round(2)} (#{large_s} s / #{small_s} s) against the calls ratio #{expected.round(2)}"
    end

    # Per request, in CPU seconds of the server (req/s figures of the two
    # belong to bench/, not to a test).
    def test_primes_with_cache_1_spares_the_server_the_prime_sum
      deployment = serve(threads: 2)
      answer = "sum of primes up to 100000 = 454396537"
      computed_s = cpu_s(deployment, "/primes/100000", 100, answer)
      cached_s = cpu_s(deployment, "/primes/100000?cache=1", 100, answer)
      assert_operator computed_s, :>, 3 * [cached_s, 0.01].max,
                      "100 requests: computed #{computed_s} s of CPU, cached #{cached_s} s"
    end
  end
end
