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
      assert_operator took_ms, :<, 300, "and not much more"
      assert_includes service.commands.first, "--delay-ms"
    end

    def test_a_request_can_ask_for_its_own_delay_and_size
      _, env = start_service("service" => "upstream")
      target = Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL"))
      _, _, body, took_ms = timed_get(target.with_path("/?delay_ms=0&body_bytes=300"))
      assert_equal 300, body.bytesize
      assert_operator took_ms, :<, 50, "no delay"
      _, _, body, took_ms = timed_get(target.with_path("/"))
      assert_equal 16_384, body.bytesize
      assert_operator took_ms, :>=, 50, "the default delay is 50 ms"
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

    # The heaviest demand is the most clients of any built-in suite (smoke
    # variants included) each waiting on one upstream call of its delay; the
    # 2016 seed's largest server, puma x8:10, could hold 80 calls in flight.
    def heaviest_demand_per_s(delay_ms)
      names = Suite.builtin_names.select { |n| File.read(File.join(Suite::BUILTIN_DIR, "#{n}.yml")).include?("upstream") }
      suites = names.flat_map { |n| [Suite.load(n), Suite.load(n, overrides: { "smoke" => true })] }
      from_suites = suites.map { |s| Services::Upstream.demand_per_s(s) }.max
      [from_suites, 80 * 1000.0 / delay_ms].max
    end

    def test_it_holds_several_times_the_rate_the_heaviest_suite_asks_of_it
      delay_ms = 50
      service, env = start_service("service" => "upstream", "delay_ms" => delay_ms)
      demand_per_s = heaviest_demand_per_s(delay_ms)
      # A new connection per request, as the apps make them; 8x the seed's 80 calls in flight.
      load = Engines::Load.new(target: Target.parse(env.fetch("RACKBENCH_UPSTREAM_URL")), concurrency: 640,
                               requests: 16_000, keepalive: false, timeout_s: 5)
      sampler = Sampler.new(root_pids: [service.children.first.pid])
      before = sampler.take
      result = Engines.fetch("ab").new.run(load, supervisor: supervisor, dir: tmpdir)
      after = sampler.take
      cpu_share = (after.cpu_s - before.cpu_s) / (after.t_s - before.t_s)

      assert_equal 0, result.error_count, "no failed requests"
      assert_operator result.requests_per_s, :>=, 3 * demand_per_s,
                      "#{result.requests_per_s.round} req/s is at least 3x the heaviest demand (#{demand_per_s.round} req/s)"
      assert_operator result.latency_us["p50"], :<, (delay_ms + 50) * 1000, "answers stay close to the delay under load"
      assert_operator cpu_share, :<, 0.9, "the stub had CPU to spare (used #{(cpu_share * 100).round} % of a core)"
    end
  end
end
