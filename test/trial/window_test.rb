# frozen_string_literal: true

require "test_helper"
require "json"

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

    def start(starved_share: Window::STARVED_SHARE, starved_wait_share: EmptyWindow::STARVED_WAIT_SHARE,
              pinning: Pinning.choose(enabled: false))
      window = Window.new(engine: @engine, supervisor: @supervisor, pinning: pinning,
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
      assert File.exist?(File.join(@trial.dir, "again2-native.out")), "starved again: a third ran"
      refute File.exist?(File.join(@trial.dir, "again3-native.out")), "and no more (Window::AGAIN)"
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

    # The engine's first run at nice 19 on a CPU a busy loop holds (about
    # 1.5 % of the CPU for the engine): it waits for the CPU most of its run
    # and hardly runs, as one start of ab_test's app did beside other runs
    # pinned to its CPU (a fraction of its rate, p99 near 1.1 s). Requests
    # completed, yet the window is measured once more (the loop gone), and
    # the repeat keeps the first one's wait.
    def test_a_window_whose_engine_was_kept_off_its_cpu_is_measured_again
      repeat, first = measure_with_engine_starved
      assert_operator first["requests"], :>, 0, "the first window counted requests: #{first.slice("requests", "client_cpu")}"
      wait_s = repeat.noise["starved_engine_wait_s"]
      refute_nil wait_s, "not measured again: the first window's engine #{first["client_cpu"]}"
      assert_in_delta first.dig("client_cpu", "wait_s"), wait_s, 1e-6
      assert_operator wait_s, :>=, 0.5, "the engine waited half its 1 s window or more"
      assert File.exist?(File.join(@trial.dir, "again-native.out")), "the second window ran"
      assert_operator repeat.result.requests, :>, first["requests"], "the second window's engine ran"
    end

    # The same starved engine in a duet's window (partners loaded at once):
    # measured again alone it would be no duet's window, so it is kept and
    # marked for the comparison to leave out.
    def test_a_duet_window_whose_engine_was_kept_off_its_cpu_is_kept_and_marked_never_measured_alone
      repeat, first = measure_with_engine_starved(duet: true)
      assert_operator first.dig("client_cpu", "wait_s"), :>=, 0.5, "the engine waited half its window: #{first["client_cpu"]}"
      assert_equal true, repeat.noise["starved_in_duet"]
      refute File.exist?(File.join(@trial.dir, "again-native.out")), "no window measured alone"
    end

    # One window of /hello whose engine's first run is at nice 19 beside a
    # busy loop on its CPU (duet: the loop's pid as its partner): the repeat
    # and the first run's output.
    def measure_with_engine_starved(duet: false)
      cpus = Pinning.available_cpus
      skip "needs two CPUs: one for the server, one for the engine and what holds it" if cpus.size < 2
      hog = []
      @engine = FirstRunNiced.new(after_it: -> { stop(hog) })
      start(pinning: Pinning.new([cpus.first], [cpus.last]))
      load = Engines::Load.new(target: @trial.target("/hello"), concurrency: 8, threads: 1, duration_s: 1, timeout_s: 5,
                               traffic: Traffic.new({ "name" => "hello", "path" => "/hello" }))
      hog << Process.spawn("taskset", "-c", cpus.last.to_s, "sh", "-c", "while :; do :; done")
      repeat = @trial.measure(load, dir: @trial.dir, partners: duet ? hog.dup : [])
      [repeat, JSON.parse(File.read(File.join(@trial.dir, "native.out")))]
    ensure
      stop(hog || [])
    end

    def stop(pids)
      kill_and_reap(pids)
      pids.clear
    end

    # The native engine, its first run at nice 19; `after_it` is called once that run ends.
    class FirstRunNiced < Engines.fetch("native")
      def initialize(after_it:)
        super()
        @after_it = after_it
      end

      def command(load, dir)
        @after_it ? ["nice", "-n", "19", *super] : super
      end

      def run(...)
        super
      ensure
        @after_it&.call
        @after_it = nil
      end
    end

    def test_a_window_that_others_did_not_hold_fails_at_once
      error = measure_slow_window(starved_share: 1.01)
      refute_match(/measured again/, error.message)
      refute File.exist?(File.join(@trial.dir, "again-native.out")), "no second window"
    end
  end
end
