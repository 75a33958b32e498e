# frozen_string_literal: true

require "test_helper"

module Rackbench
  # warmup: steady on a real server whose app is slow for its first seconds
  # (it sleeps less as it warms, as a cold JIT or cache is): the measured
  # window starts only once the per-second throughput has no trend. Every
  # answer sleeps 5 ms more, so the warm app's throughput is set by sleeps,
  # not by the CPU a busy machine leaves it (a CPU-bound window once rose
  # 8,592 -> 9,622 -> 10,480 requests a second in a CI run beside a CPU hog).
  class SteadyWarmupTest < Minitest::Test
    SLOW_S = 5

    WARMING_APP = <<~RUBY.freeze
      first = nil
      lock = Mutex.new
      run lambda { |_env|
        now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        elapsed = now - lock.synchronize { first ||= now }
        sleep(0.005 + (elapsed < #{SLOW_S} ? 0.02 * (1 - (elapsed / #{SLOW_S}.0)) : 0))
        [200, { "content-type" => "text/plain" }, ["ok"]]
      }
    RUBY

    def test_the_measured_window_starts_after_the_throughput_stops_rising
      app = File.join(tmpdir, "warming.ru")
      File.write(app, WARMING_APP)
      store = Store.new(File.join(tmpdir, "results"))
      suite = Suite.load(write_suite("app" => app, "endpoints" => ["/"], "engine" => "native", "concurrency" => [4],
                                     "warmup" => "steady", "warmup_s" => 1, "warmup_s_max" => 40, "duration_s" => 3,
                                     "servers" => [{ "server" => "puma", "threads" => 4 }]))
      repeat = store.measurements(Runner.new(suite, store: store).run).first.repeats.first
      warmup = repeat.resources["warmup"]
      assert warmup["steady"], "steady within warmup_s_max: #{warmup.inspect}"
      rates = warmup["requests_per_s"]
      # Its shortest (SteadyWarmup::POINTS seconds) holds the app's slow seconds, which rise: it read more.
      assert_operator rates.size, :>, SteadyWarmup::POINTS, "it waited past the slow seconds: #{warmup.inspect}"
      assert Trend.new(rates.last(SteadyWarmup::POINTS)).flat?, "its last seconds have no trend: #{rates.inspect}"
      assert_operator rates.first * 2, :<, repeat.requests_per_s,
                      "the measured window (#{repeat.requests_per_s.round} req/s) is past the slow start (#{rates.inspect})"
      # A window begun inside the slow seconds rises by 40 % or more over its 3 s (the sleep falls from
      # 7 ms or more to 5); beside a CPU hog a warm one once rose 595 -> 620 -> 648 (9 %) as the machine's
      # load eased, which the 5 % a warm-up reads as flat called rising.
      measured = repeat.result.series.map { |p| p["requests"] }
      refute Trend.new(measured).rising?(within: 0.2), "the window itself is not still warming: #{measured.inspect}"
      assert_nothing_left
    ensure
      store&.close
    end

    # ab prints no per-second series: the warm-up runs on the native engine
    # (at the window's concurrency) and ends when the rate levels off, where
    # it used to run to warmup_s_max on every start of every Rails cell. On
    # a 20 ms sleep, so the warm-up's seconds (six at least) are not spent
    # with Rails keeping a CPU busy, as they were on /hello.
    def test_an_ab_cell_of_the_rails_app_finishes_its_warm_up_before_the_cap
      store = Store.new(File.join(tmpdir, "results"))
      suite = Suite.load(write_suite("app" => "rails", "endpoints" => ["/sleep/20"], "engine" => "ab", "concurrency" => [2],
                                     "warmup_s" => 1, "warmup_s_max" => 60, "duration_s" => 1, "keepalive" => false,
                                     "servers" => [{ "server" => "puma", "threads" => 2 }]))
      cell = store.measurements(Runner.new(suite, store: store).run).first
      assert cell.ok?, cell.reason
      warmup = cell.repeats.first.resources["warmup"]
      assert_equal %w[steady native], warmup.values_at("mode", "engine"), warmup.inspect
      assert warmup["steady"], "steady before the 60 s cap: #{warmup.inspect}"
      assert_operator warmup["duration_s"], :<, 60, warmup.inspect
      assert_operator warmup["requests_per_s"].size, :>=, SteadyWarmup::POINTS, "a per-second series was read: #{warmup.inspect}"
      assert_equal "ab", cell.repeats.first.result.engine, "the window itself is still ab's"
      assert_nothing_left
    ensure
      store&.close
    end

    # Requests slower than a chunk: every chunk would leave its clients'
    # requests queued in the server; the warm-up stops after the first that
    # does, and the window's drain waits for those few.
    def test_a_warm_up_whose_chunk_left_requests_in_the_server_ends_there
      app = File.join(tmpdir, "slow.ru")
      File.write(app, "run ->(_env) { sleep 1.5; [200, { 'content-type' => 'text/plain' }, ['ok']] }\n")
      store = Store.new(File.join(tmpdir, "results"))
      suite = Suite.load(write_suite("app" => app, "endpoints" => ["/"], "engine" => "native", "concurrency" => [3],
                                     "warmup" => "steady", "warmup_s" => 1, "warmup_s_max" => 30, "duration_s" => 2,
                                     "drain_timeout_s" => 30, "servers" => [{ "server" => "puma", "threads" => 1 }]))
      cell = store.measurements(Runner.new(suite, store: store).run).first
      assert cell.ok?, cell.reason
      warmup = cell.repeats.first.resources["warmup"]
      assert_operator warmup["left_in_server"], :>, 0, warmup.inspect
      refute warmup["steady"], warmup.inspect
      assert_operator warmup["requests_per_s"].size, :<=, SteadyWarmup::CHUNK_S,
                      "one chunk's seconds, not 30 s of them: #{warmup.inspect}"
      assert_nothing_left
    ensure
      store&.close
    end

    def test_steady_is_the_default_for_apps_and_servers_that_jit_or_cache
      suite = ->(extra) { Suite.new(suite_yaml({ "warmup_s" => 1 }.merge(extra))) }
      puma = Servers.fetch("puma").new("server" => "puma")
      yjit = Servers.fetch("puma").new("server" => "puma", "yjit" => true)
      rack = File.join(ROOT, "apps", "rack", "config.ru")
      rails = File.join(ROOT, "apps", "rails", "config.ru")
      refute SteadyWarmup.wanted?(suite.call({}), puma, rack)
      assert SteadyWarmup.wanted?(suite.call({}), puma, rails), "Rails caches as it serves"
      assert SteadyWarmup.wanted?(suite.call({}), yjit, rack), "YJIT compiles as it serves"
      refute SteadyWarmup.wanted?(suite.call("warmup" => "fixed"), yjit, rails), "warmup: fixed keeps warmup_s"
      refute SteadyWarmup.wanted?(suite.call("warmup_s" => 0), yjit, rails), "no warm-up asked for (a smoke run)"
      assert SteadyWarmup.wanted?(suite.call("warmup" => "steady"), puma, rack)
      error = assert_raises(ConfigError) { suite.call("warmup" => "long") }
      assert_includes error.message, 'warmup must be steady or fixed, got "long"'
    end

    def test_a_servers_config_says_the_same_before_any_server_is_made
      suite = ->(extra) { Suite.new(suite_yaml({ "warmup_s" => 1 }.merge(extra))) }
      refute SteadyWarmup.planned?(suite.call({}), { "server" => "puma" })
      assert SteadyWarmup.planned?(suite.call({}), { "server" => "puma", "app" => "rails" }), "Rails caches as it serves"
      assert SteadyWarmup.planned?(suite.call({}), { "server" => "puma", "yjit" => true }), "YJIT compiles as it serves"
      assert SteadyWarmup.planned?(suite.call({}), { "server" => "trinidad" }), "a JVM compiles as it serves"
      refute SteadyWarmup.planned?(suite.call("warmup_s" => 0), { "server" => "trinidad" }), "no warm-up asked for"
    end
  end
end
