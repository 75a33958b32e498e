# frozen_string_literal: true

require "test_helper"
require "json"
require "tmpdir"

module Rackbench
  # The native engine's adapter: the argv it builds (the answer rule's checks
  # with each request, slow clients) and the Result it reads from the
  # engine's JSON (answers judged by the engine alone, bodies, client groups,
  # warning codes).
  class NativeEngineTest < Minitest::Test
    def native = Engines.fetch("native").new

    def load(**extra) = Engines::Load.new(target: Target.tcp(9292, "/hello"), concurrency: 4, duration_s: 2, **extra)

    def option(argv, name) = argv.each_index.select { |i| argv[i] == name }.map { |i| argv[i + 1] }

    def test_every_request_carries_the_answer_rules_check
      argv = native.command(load(traffic: Traffic.new("path" => "/hello")), nil)
      assert_equal ["200-399"], option(argv, "--expect-status"), "the default rule, passed: the engine has none of its own"
      assert_empty option(argv, "--expect-body")

      catalogue = AnswerRule.new(catalogue: true)
      argv = native.command(load(traffic: Traffic.new("path" => "/hello"), rule: catalogue), nil)
      assert_equal [["200"], ["hello world"]], [option(argv, "--expect-status"), option(argv, "--expect-body")]

      own = Traffic.new("path" => "/items", "method" => "POST", "expect_status" => [201, 204], "expect_body" => "ok")
      argv = native.command(load(traffic: own, rule: catalogue), nil)
      assert_equal [["201,204"], ["ok"]], [option(argv, "--expect-status"), option(argv, "--expect-body")]
    end

    def test_each_member_of_a_mix_carries_its_own_check_after_its_endpoint
      mix = Traffic.new("mix" => [{ "endpoint" => { "path" => "/hello" }, "weight" => 3 },
                                  { "endpoint" => { "name" => "create", "path" => "/items", "method" => "POST",
                                                    "expect_status" => 201 }, "weight" => 1 }])
      argv = native.command(load(traffic: mix, rule: AnswerRule.new(catalogue: true)), nil)
      members = argv.slice_before("--endpoint").drop(1)
      assert_equal ["--endpoint", "/hello", "--weight", "3", "--path", "/hello",
                    "--expect-status", "200", "--expect-body", "hello world"], members[0]
      assert_equal ["--endpoint", "create", "--weight", "1", "--method", "POST", "--path", "/items",
                    "--expect-status", "201"], members[1].first(10)
    end

    def test_slow_clients_are_passed_and_other_engines_refuse_them
      slow = Engines::SlowClients.new(connections: 5, send_bytes_per_s: 500, read_bytes_per_s: nil)
      argv = native.command(load(slow_clients: slow), nil)
      assert_equal [["5"], ["500"], []], [option(argv, "--slow-connections"), option(argv, "--slow-send"),
                                          option(argv, "--slow-read")]
      error = assert_raises(ConfigError) { Engines.fetch("wrk").new.validate!(load(slow_clients: slow)) }
      assert_equal "engine wrk: slow_clients need engine: native", error.message
      assert_nil Engines::SlowClients.from_suite({ "slow_clients" => 0 })
      assert_equal 4000, Engines::SlowClients.from_suite({ "slow_clients" => 2, "slow_read_bytes_per_s" => 4000 })
                                             .read_bytes_per_s
    end

    def test_a_body_too_large_for_the_command_line_goes_in_a_file
      Dir.mktmpdir do |dir|
        big = "b" * (native.class::ARGV_BODY_MAX_BYTES + 1)
        argv = native.command(load(traffic: Traffic.new("path" => "/upload", "method" => "POST", "body" => big)), dir)
        refute_includes argv, "--body"
        assert_equal big, File.binread(option(argv, "--body-file").first)
        assert_operator argv.sum(&:bytesize), :<, 2000, "the recorded command stays short"
        small = native.command(load(traffic: Traffic.new("path" => "/items", "method" => "POST", "body" => "{}")), dir)
        assert_equal ["{}"], option(small, "--body")
      end
    end

    ENGINE_JSON = {
      "mode" => "closed", "requests" => 10, "duration_s" => 1.0, "requests_per_s" => 10.0, "bytes" => 100,
      "latency_us" => { "p50" => 1 }, "status_counts" => { "200" => 8, "404" => 2 }, "reconnects" => 0, "series" => [],
      "histogram" => [[1, 10]], "errors" => { "connect" => 0, "status" => 1, "check" => 1 },
      "sent_bytes" => 800, "body_bytes" => 4000, "decoded_bytes" => 9000, "gzip_responses" => 10,
      "warmup_requests" => 37,
      "clients" => { "fast" => { "connections" => 4, "requests" => 9 }, "slow" => { "connections" => 1, "requests" => 1 } },
      "warnings" => ["20.0 % of responses failed their check"],
      "warning_codes" => [{ "code" => "answers", "failed" => 2, "responses" => 10, "status" => 1, "check" => 1 }]
    }.freeze

    def test_the_engines_counts_of_failed_answers_are_taken_as_they_are
      result = native.parse(ENGINE_JSON.to_json, load, ["rackbench-load"])
      assert_equal [1, 1], result.errors.values_at("status", "check"), "not the 2 non-2xx/3xx again"
      assert_equal 2, result.error_count
    end

    def test_bodies_client_groups_warning_codes_and_the_warm_up_s_responses_reach_the_result
      result = native.parse(ENGINE_JSON.to_json, load, ["rackbench-load"])
      assert_equal [800, 4000, 9000, 10], [result.sent_bytes, result.body_bytes, result.decoded_bytes, result.gzip_responses]
      assert_equal 37, result.warmup_requests
      assert_equal [9, 1], [result.fast_clients.requests, result.slow_clients.requests]
      warning = result.engine_warnings.first
      assert_equal ["answers", 2, "20.0 % of responses failed their check"],
                   [warning.code, warning.figures["failed"], warning.text]
    end
  end
end
