# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A Result: its error kinds, what it counts as attempted, its client groups
  # and its engine warnings as values; old records without the newer fields.
  class ResultTest < Minitest::Test
    def test_every_error_kind_is_present_and_failed_answers_are_not_attempts_lost
      result = Result.new(requests: 10, errors: { "read" => 2, "status" => 3, "check" => 1 })
      assert_equal Result::ERROR_KINDS.sort, result.errors.keys.sort
      assert_equal 6, result.error_count
      assert_equal 12, result.total, "a failed answer is a completed request; a read error an attempt without one"
    end

    def test_slow_and_fast_clients_are_read_as_groups
      clients = {
        "fast" => { "connections" => 4, "requests" => 400, "requests_per_s" => 200.0, "errors" => { "other" => 1 },
                    "histogram" => [[1000, 396], [2000, 4]] },
        "slow" => { "connections" => 2, "requests" => 4, "requests_per_s" => 2.0, "send_bytes_per_s" => 500.0,
                    "read_bytes_per_s" => nil, "errors" => { "status" => 0, "check" => 0, "other" => 0 },
                    "histogram" => [[2_000_000, 4]], "paced" => { "send_bytes_per_s" => 497.5, "read_bytes_per_s" => nil } }
      }
      result = Result.new(requests: 404, clients: clients)
      assert_equal [4, 400, 1], [result.fast_clients.connections, result.fast_clients.requests, result.fast_clients.error_count]
      assert_equal 1.0, result.fast_clients.latency_ms(50)
      slow = result.slow_clients
      assert_equal ["slow", 500.0, 497.5, nil], [slow.name, slow.send_bytes_per_s, slow.held_send_bytes_per_s,
                                                 slow.held_read_bytes_per_s]
      assert_equal 2000.0, slow.latency_ms(99)
    end

    def test_a_result_without_slow_clients_or_codes_has_no_groups_and_no_coded_warnings
      result = Result.from_h("requests" => 1, "warnings" => ["old text"])
      assert_nil result.slow_clients
      assert_nil result.fast_clients
      assert_empty result.engine_warnings
      assert_nil result.body_bytes
    end

    def test_engine_warnings_pair_each_code_with_its_sentence
      result = Result.new(warnings: %w[first second],
                          warning_codes: [{ "code" => "unsent", "unsent" => 7 }, { "code" => "no_requests" }])
      read = result.engine_warnings.map { |w| [w.code, w.figures, w.text] }
      assert_equal [["unsent", { "unsent" => 7 }, "first"], ["no_requests", {}, "second"]], read
    end
  end
end
