# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A Window on a real puma whose answers take longer than the window: nothing
  # completes. Measured once more when other processes held the measured CPUs
  # (starved_share: 0 makes any share count) or the server or the engine
  # waited for a CPU (starved_wait_share: 0 makes any wait count), at once a
  # failure otherwise.
  class WindowTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
      @engine = Engines.fetch("native").new
      skip "native engine: #{@engine.unavailable_reason}" if @engine.unavailable_reason
    end

    def teardown
      @trial&.stop
      @supervisor.stop_all
      assert_nothing_left
      super
    end

    def start(starved_share: Window::STARVED_SHARE, starved_wait_share: EmptyWindow::STARVED_WAIT_SHARE)
      window = Window.new(engine: @engine, supervisor: @supervisor, pinning: Pinning.choose(enabled: false),
                          starved_share: starved_share, starved_wait_share: starved_wait_share)
      server = Servers.fetch("puma").new("server" => "puma", "threads" => 2)
      dir = File.join(tmpdir, "trial")
      @trial = Trial.new(server, supervisor: @supervisor, dir: dir, app: Apps.path("rack"), window: window,
                                 env: Apps.default_env(dir), rule: AnswerRule.new(catalogue: true), ready_timeout_s: 60).start
    end

    def measure_slow_window(starved_share:, starved_wait_share: Float::INFINITY)
      start(starved_share: starved_share, starved_wait_share: starved_wait_share)
      load = Engines::Load.new(target: @trial.target("/sleep/1500"), concurrency: 2, duration_s: 0.5, timeout_s: 5,
                               traffic: Traffic.new({ "name" => "slow", "path" => "/sleep/1500" }))
      assert_raises(ServiceError) { @trial.measure(load, dir: @trial.dir) }
    end

    def test_a_window_starved_by_other_processes_is_measured_again_before_it_fails
      error = measure_slow_window(starved_share: 0.0)
      assert_match(/\Ano request completed in the measured [\d.]+ s \(0 errors; other processes used \d+ % /, error.message)
      assert_match(/; measured again after a window they held at \d+ %\): the server stalled/, error.message)
      sent = /; the engine sent [1-9]\d* requests in it \([1-9]\d* unanswered at its end\)/
      assert_match(/#{sent}, the server used [\d.]+ s of CPU and waited [\d.]+ s for one, the engine waited [\d.]+ s for a CPU\z/,
                   error.message, "what tells a stalled server from load that never ran, and a starved one from a stalled one")
      assert File.exist?(File.join(@trial.dir, "native.out")), "the first window's output is kept"
      assert File.exist?(File.join(@trial.dir, "again-native.out")), "the second window ran"
    end

    # Poisson arrivals at 0.2 req/s leave a 0.5 s window empty 90 % of the
    # time; with seed 1 this one is: nothing was asked, so nothing failed.
    def test_an_open_loop_window_in_which_no_request_was_due_is_kept_with_a_warning
      start
      load = Engines::Load.new(target: @trial.target("/hello"), concurrency: 2, duration_s: 0.5, timeout_s: 5, rate: 0.2,
                               arrivals: "poisson", seed: 1, traffic: Traffic.new({ "name" => "hello", "path" => "/hello" }))
      repeat = @trial.measure(load, dir: @trial.dir)
      assert_equal [0, 0], [repeat.result.requests, repeat.result.window_requests["total"]]
      assert_includes repeat.result.warnings, "no request was due in this 0.5 s window at 0.2 req/s offered (poisson " \
                                              "arrivals leave it empty 90 % of the time): nothing was measured; " \
                                              "a longer duration_s gives every window requests"
    end

    # The server and the engine waited for a CPU at least 0 s (wait share 0):
    # their waits alone call the window starved, whatever others held.
    def test_a_window_whose_server_or_engine_waited_for_a_cpu_is_measured_again
      error = measure_slow_window(starved_share: 1.01, starved_wait_share: 0.0)
      assert_match(/; measured again after a window they held at \d+ %\)/, error.message)
      assert File.exist?(File.join(@trial.dir, "again-native.out")), "the second window ran"
    end

    def test_a_window_that_others_did_not_hold_fails_at_once
      error = measure_slow_window(starved_share: 1.01)
      refute_match(/measured again/, error.message)
      refute File.exist?(File.join(@trial.dir, "again-native.out")), "no second window"
    end
  end
end
