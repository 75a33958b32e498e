# frozen_string_literal: true

require_relative "services_helper"

module Rackbench
  # The upstream stub behind /network-io: a real process that waits delay_ms,
  # answers body_bytes, and is never the bottleneck of a suite.
  class UpstreamTest < Minitest::Test
    include ServiceHelpers

    def timed_get(target)
      started = monotonic_s
      status, headers, body = Readiness.get(target)
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
      assert_operator took_ms, :<, 80 * 10, "once, in milliseconds"
      assert_includes service.commands.first, "--delay-ms"
    end

    # Against a configured delay of 2 s, a request's own delay_ms=0 answers
    # at least 4 x sooner (no delay is a few ms; the bound is not a latency).
    def test_a_request_can_ask_for_its_own_delay_and_size
      _, env = start_service("service" => "upstream", "delay_ms" => 2000)
      target = Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL"))
      _, _, body, took_ms = timed_get(target.with_path("/?delay_ms=0&body_bytes=300"))
      assert_equal 300, body.bytesize
      assert_operator took_ms, :<, 2000 / 4, "no delay"
      _, _, body, took_ms = timed_get(target.with_path("/?delay_ms=100"))
      assert_equal 16_384, body.bytesize
      assert_operator took_ms, :>=, 100, "its own delay"
      assert_operator took_ms, :<, 2000 / 4, "instead of the configured one"
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
    # calls of 200 ms; one call at a time would take 48 s, overlapped ones about
    # 0.6 s. The bound is an order of magnitude off either, so a busy machine
    # cannot fail it; how many req/s the stub holds is measured in bench/.
    def test_it_holds_many_delayed_calls_in_flight_at_once
      delay_ms = 200
      in_flight = 80
      service, env = start_service("service" => "upstream", "delay_ms" => delay_ms)
      load = Engines::Load.new(target: Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL")), concurrency: in_flight,
                               requests: in_flight * 3, keepalive: false, timeout_s: 30)
      result = Engines.fetch("ab").new.run(load, supervisor: supervisor, dir: tmpdir)

      assert service.children.first.alive?, "the stub is still serving"
      assert_equal 0, result.error_count, "no failed requests"
      assert_equal in_flight * 3, result.requests
      one_at_a_time_s = in_flight * 3 * delay_ms / 1000.0
      assert_operator result.duration_s, :<, one_at_a_time_s / 5,
                      "#{in_flight} calls overlap: #{result.duration_s.round(2)} s against #{one_at_a_time_s} s one at a time"
      assert_operator result.latency_us["p50"], :>=, delay_ms * 1000 * 0.9, "each answer waits out its delay"
    end
  end
end
