# frozen_string_literal: true

require "test_helper"
require "rackbench/charts/page"
require "rackbench/charts/renderer"

module Rackbench
  # explain: true on real puma servers: the engine stamps each request, the
  # probe splits the time inside the server into queue and app, and the
  # split tells configs apart the way queueing and the GVL say it must.
  # Asserted as ratios between configs of one run, with generous bounds.
  class ExplainTest < Minitest::Test
    include TestHelpers

    # The breakdown of each config at concurrency 4, by its threads; the
    # block gets the stored run and its measurements. The windows in turns
    # alone (ratio: turns): the breakdown reads only them, so a duet ratio
    # window a start (the default's: 5 s of both servers at once on
    # /fibonacci/33) would be measured for nothing.
    def run_suite(endpoint, servers, duration_s:, warmup_s:, starts: 1, concurrency: [4])
      path = write_suite("engine" => "native", "explain" => true, "endpoints" => [endpoint], "concurrency" => concurrency,
                         "duration_s" => duration_s, "warmup_s" => warmup_s, "servers" => servers,
                         "repeats" => starts, "deployments" => starts, "ratio" => "turns")
      store = Store.new(tmpdir)
      run_id = Runner.new(Suite.load(path), store: store).run
      measurements = store.measurements(run_id)
      measurements.each { |m| assert m.ok?, "#{m.label}: #{m.reason}" }
      yield store.run(run_id), measurements if block_given?
      measurements.select { |m| m.concurrency == 4 }.to_h { |m| [m.config["threads"], Probe::Breakdown.of(m.repeats)] }
    ensure
      store&.close
      assert_nothing_left
    end

    # c=4 on 1 thread: each request waits for the 3 ahead of it (queue about 3x
    # app); on 4 threads none waits. The html report's chart per config draws
    # the same split against concurrency: on 1 thread the queue part grows
    # from c=1 to c=4. 1.5 s windows after 0.5 s of warm-up (the four
    # clients queue from their first requests): 30 requests each on 1
    # thread, and the split of a 50 ms sleep varies little between them.
    def test_on_sleep_one_thread_queues_three_requests_and_four_threads_queue_none
      charts = nil
      by_threads = run_suite("/sleep/50", [{ "server" => "puma", "threads" => 1 }, { "server" => "puma", "threads" => 4 }],
                             duration_s: 1.5, warmup_s: 0.5, concurrency: [1, 4]) do |run, measurements|
        charts = Charts::Page.new(run, measurements).why.flat_map(&:last)
        assert_stacked_svgs(charts)
      end
      one = by_threads.fetch(1)
      four = by_threads.fetch(4)

      figures = "1 thread: queue #{one.queue_ms(50)} ms, app #{one.app_ms(50)} ms; " \
                "4 threads: queue #{four.queue_ms(50)} ms, app #{four.app_ms(50)} ms (p50)"

      assert_equal 1.0, one.stamped_share, "every request carried the engine's X-Request-Start"
      assert_in_delta 3.0, one.queue_ms(50) / one.app_ms(50), 1.2, figures
      assert_operator four.queue_ms(50), :<, 0.25 * four.app_ms(50), figures
      assert_operator four.at(50)["queue_ms"], :<, 0.25 * four.at(50)["app_ms"], figures
      assert_queue_grows_with_concurrency_on_one_thread(charts)
    end

    def assert_stacked_svgs(charts)
      assert_equal %w[rack-sleep-50-puma-x0-1-why rack-sleep-50-puma-x0-4-why], charts.map { |c| c["name"] }.sort
      # kept in test/artifacts/ (git-ignored) for a person to look at
      Charts::Renderer.new.render(charts, File.join(ROOT, "test", "artifacts", "explain")).each do |svg|
        # a bar per part, percentile and concurrency (GC at 0 ms draws an empty bar)
        assert_operator File.read(svg).scan('aria-roledescription="bar"').size, :>=, 3 * 2 * 2, svg
      end
    end

    def assert_queue_grows_with_concurrency_on_one_thread(charts)
      one = charts.find { |c| c["name"] == "rack-sleep-50-puma-x0-1-why" }
      queue = one.dig("spec", "layer", 0, "data", "values").select { |p| p["part"] == "queue" && p["percentile"] == "p50" }
                 .to_h { |p| [p["concurrency"], p["ms"]] }
      assert_operator queue.fetch(1), :<, 0.2 * queue.fetch(4), "1 thread, queue part of p50 by concurrency: #{queue}"
    end

    # A CPU-bound request well past the GVL's 100 ms time slice (fib(33), about 230 ms here; fib(31)
    # took 87 ms, inside one slice, so 4 threads ran it one after another): with 4
    # threads the requests take turns on the GVL inside the app.
    def test_on_fibonacci_app_time_with_four_threads_rises_above_one_threads
      # two starts each, so one start that stalled cannot decide it. 4 s
      # windows after 1 s of warm-up: 4 threads finish their first requests
      # together, after about 0.9 s of the server's CPU (a server starved to
      # 0.5 s of CPU in a window completes none)
      by_threads = run_suite("/fibonacci/33", [{ "server" => "puma", "threads" => 1 }, { "server" => "puma", "threads" => 4 }],
                             duration_s: 4, warmup_s: 1, starts: 2)

      one = by_threads.fetch(1).app_ms(50)
      four = by_threads.fetch(4).app_ms(50)

      assert_operator four, :>, 1.5 * one, "app p50: #{four} ms on 4 threads, #{one} ms on 1"
    end
  end
end
