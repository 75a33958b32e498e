# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A Trial on a real puma serving the bundled Rack app: started, its
  # answers held to the catalogue's rule, a window measured, then stopped
  # with nothing left behind.
  class TrialTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
      engine = Engines.fetch("native").new
      skip "native engine: #{engine.unavailable_reason}" if engine.unavailable_reason
      @window = Window.new(engine: engine, supervisor: @supervisor, pinning: Pinning.choose(enabled: false))
    end

    def teardown
      @trial&.stop
      @supervisor.stop_all
      assert_nothing_left
      super
    end

    def start(app: Apps.path("rack"), explain: false)
      server = Servers.fetch("puma").new("server" => "puma", "threads" => 2)
      dir = File.join(tmpdir, "trial")
      @trial = Trial.new(server, supervisor: @supervisor, dir: dir, app: app, window: @window, env: Apps.default_env(dir),
                                 rule: AnswerRule.new(catalogue: Apps.bundled?("rack")), ready_timeout_s: 60,
                                 explain: explain).start
    end

    def hello_load(concurrency: 2, warmup_s: 0)
      Engines::Load.new(target: @trial.target("/hello"), concurrency: concurrency, duration_s: 0.5, warmup_s: warmup_s,
                        timeout_s: 10, traffic: Traffic.new({ "name" => "hello", "path" => "/hello" }))
    end

    def test_an_answer_is_held_to_the_rule_and_a_wrong_one_is_named_not_raised
      start
      hello = @trial.answer(Request.new("path" => "/hello"))
      assert hello.ok?, hello.to_s
      assert_equal [200, "hello world"], [hello.status, hello.body]
      wrong = @trial.answer(Request.new("path" => "/hello", "expect_body" => "goodbye"))
      assert_equal ['GET /hello: body does not contain "goodbye": "hello world"'], [wrong.to_s]
      error = assert_raises(ServiceError) { @trial.check!(Request.new("path" => "/nowhere")) }
      assert_match %r{\Averify GET /nowhere: status 404, expected 200 to 399}, error.message
      refute_empty error.log_tail.to_s, "the server's log comes with it"
    end

    def test_an_endpoint_is_verified_once_per_trial
      start
      @trial.verify!({ "name" => "hello", "path" => "/hello" })
      @trial.stop
      @trial.verify!({ "name" => "hello", "path" => "/hello" }) # checked already: nothing is sent
      error = assert_raises(ServiceError) { @trial.verify!({ "name" => "sleep", "path" => "/sleep/1" }) }
      assert_match %r{verify GET /sleep/1: no answer}, error.message
    end

    def test_a_window_is_measured_after_the_drain_into_a_repeat
      start
      @trial.drain(path: "/hello", timeout_s: 30)
      repeat = @trial.measure(hello_load, dir: @trial.dir)
      assert_operator repeat.result.requests, :>, 0
      refute_nil repeat.drain_s, "drained before the window"
      assert_operator repeat.resources["processes_max"].to_i, :>=, 1, "the server tree was sampled"
    end

    # Counted by rackbench as it sends them, the warm-up's responses by the
    # engine, and checked against what the probe inside the app saw: every
    # request before the window is one of them, give or take the requests in
    # flight at either end of the window (at most one per connection at each:
    # a whole-suite run at load 5-9 saw the app count one more than the
    # connections of one end).
    def test_the_first_window_records_what_the_server_answered_before_it
      start(explain: true)
      @trial.verify!({ "name" => "hello", "path" => "/hello" })
      @trial.drain(path: "/hello", timeout_s: 30)
      load = hello_load(warmup_s: 0.5)
      first = @trial.measure(load, dir: @trial.dir)
      before = first.resources["served_before"]
      assert_equal [1, 1, 0.5], before.values_at("readiness", "checks", "warmup_s")
      assert_operator before["drain_probes"], :>=, 2, "calibrated, then waited once before the window"
      assert_operator before["warmup_requests"], :>, 0, "the warm-up's responses, counted by the engine"
      refute before.key?("warmup_requests_estimate"), "counted, not estimated"
      counted = before.values_at("readiness", "checks", "drain_probes", "warmup_requests").sum
      probe = Probe::Window.read_settled(Probe::Wrapper.probe_dir(@trial.dir), from_us: 0, to_us: Probe::Window.now_us)
      assert_includes counted..(counted + (2 * load.concurrency)), probe["n"] - first.result.requests,
                      "the app saw #{probe["n"]} requests, #{first.result.requests} of them in the window; counted #{before}"
      assert_nil @trial.measure(hello_load, dir: @trial.dir).resources["served_before"], "only the first window says it"
    end

    def test_a_config_that_never_gets_ready_is_a_service_error_and_leaves_nothing
      broken = File.join(tmpdir, "broken.ru").tap { |p| File.write(p, "raise 'no app today'\n") }
      assert_raises(ServiceError) { start(app: broken) }
      assert_nil @trial, "no trial to stop: the deployment stopped what it started"
    end
  end
end
