# frozen_string_literal: true

require_relative "services_helper"

module Rackbench
  # The upstream stub behind /network-io: a real process that waits delay_ms,
  # answers body_bytes, and is never the bottleneck of a suite.
  class UpstreamTest < Minitest::Test
    include ServiceHelpers

    # A safety net, not a measure: a delay read as seconds (80 s) would hit it.
    DEADLINE_S = 30

    def timed_get(target)
      started = monotonic_s
      status, headers, body = Readiness.get(target, timeout_s: DEADLINE_S)
      [status, headers, body, ((monotonic_s - started) * 1000)]
    end

    def test_it_answers_each_get_after_its_delay_with_a_page_of_the_configured_size
      service, env = start_service("service" => "upstream", "delay_ms" => 80, "body_bytes" => 5000)
      target = Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL"))
      status, headers, body, took_ms = timed_get(target)
      assert_equal 200, status
      assert_equal "text/html", headers["content-type"]
      assert_equal 5000, body.bytesize
      assert_includes body, "<li>upstream item 1</li>"
      assert_operator took_ms, :>=, 80, "the delay is honoured"
      assert_includes service.commands.first, "--delay-ms"
    end

    # Order, not latency: while a GET with the configured 2 s delay is in
    # flight, one asking for delay_ms=0 and then one for delay_ms=100 are
    # both answered before it.
    def test_a_request_can_ask_for_its_own_delay_and_size
      _, env = start_service("service" => "upstream", "delay_ms" => 2000)
      target = Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL"))
      answered = Queue.new
      configured = Thread.new { timed_get(target).tap { answered << "configured" } }
      _, _, body, = timed_get(target.with_path("/?delay_ms=0&body_bytes=300")).tap { answered << "none" }
      assert_equal 300, body.bytesize
      _, _, body, took_ms = timed_get(target.with_path("/?delay_ms=100")).tap { answered << "own" }
      assert_equal 16_384, body.bytesize
      assert_operator took_ms, :>=, 100, "its own delay"
      assert_operator configured.value[3], :>=, 2000, "the configured delay"
      assert_equal %w[none own configured], Array.new(3) { answered.pop }
    end

    def test_the_default_delay_is_50_ms_and_the_default_page_16_kib
      _, env = start_service("service" => "upstream")
      _, _, body, took_ms = timed_get(Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL")))
      assert_equal 16_384, body.bytesize
      assert_operator took_ms, :>=, 50
    end

    def test_it_serves_a_unix_socket_and_leaves_nothing_behind_when_stopped
      service, env = start_service("service" => "upstream", "bind" => "unix", "delay_ms" => 10)
      url = env.fetch("RACKBENCH_UPSTREAM_URL")
      assert_match %r{\Aunix:/.*upstream\.sock:/\z}, url
      status, = Readiness.get(Target.parse(url))
      assert_equal 200, status
      refute_empty leftovers
      service.stop(supervisor)
      assert_nothing_left
    end

    def test_an_unknown_key_or_a_bad_value_is_a_config_error_naming_it
      error = assert_raises(ConfigError) { Services.fetch("upstream").new("service" => "upstream", "delay" => 5).validate! }
      assert_includes error.message, "\"delay\""
      error = assert_raises(ConfigError) { Services.fetch("upstream").new("service" => "upstream", "delay_ms" => "x").validate! }
      assert_includes error.message, "delay_ms"
    end

    # Behaviour, not speed: the stub overlaps its delays. 80 clients (the 2016
    # seed's largest server, puma x8:10, holds 80 calls in flight) each make 3
    # calls of 200 ms, against 2 clients making 3 each in the same test: in
    # flight together, 80 clients get through ideally 40 x the requests a
    # second that 2 do; the bound is 8 x. How many req/s the stub holds is
    # measured in bench/.
    def test_it_holds_many_delayed_calls_in_flight_at_once
      delay_ms = 200
      service, env = start_service("service" => "upstream", "delay_ms" => delay_ms)
      target = Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL"))
      rates = [2, 80].to_h do |in_flight|
        load = Engines::Load.new(target: target, concurrency: in_flight, requests: in_flight * 3, keepalive: false,
                                 timeout_s: DEADLINE_S)
        dir = File.join(tmpdir, "c#{in_flight}").tap { |d| FileUtils.mkdir_p(d) }
        result = Engines.fetch("ab").new.run(load, supervisor: supervisor, dir: dir)
        assert_equal [in_flight * 3, 0], [result.requests, result.error_count], "every request answered, none failed"
        assert_operator result.latency_us["p50"], :>=, delay_ms * 1000 * 0.9, "each answer waits out its delay"
        [in_flight, result.requests_per_s]
      end

      assert service.children.first.alive?, "the stub is still serving"
      assert_operator rates[80], :>, 8 * rates[2], "requests a second with 80 and with 2 in flight: #{rates.inspect}"
    end
  end
end
