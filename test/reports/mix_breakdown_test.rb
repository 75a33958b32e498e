# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Reports
    # The per-endpoint lines of a mix cell, summed over its repeats.
    class MixBreakdownTest < Minitest::Test
      def repeat(index, home_requests)
        endpoints = [
          { "name" => "/", "weight" => 3, "requests" => home_requests, "histogram" => [[1000, home_requests]],
            "errors" => { "check" => 0, "other" => 1 } },
          { "name" => "create", "weight" => 1, "requests" => 10, "histogram" => [[5000, 10]],
            "errors" => { "check" => 2, "other" => 0 } }
        ]
        result = Result.new(requests: home_requests + 10, duration_s: 1.0, requests_per_s: home_requests + 10.0,
                            endpoints: endpoints)
        Measurement::Repeat.new(index: index, deployment: 1, result: result, resources: {}, noise: {})
      end

      def measurement(repeats)
        row = { "position" => 1, "server" => "puma", "label" => "puma x0:5", "endpoint" => "mix", "path" => "/",
                "concurrency" => 4, "status" => "ok", "engine" => "native" }
        Measurement.new(row, repeats)
      end

      def test_each_member_gets_its_share_rate_latency_and_errors_over_all_repeats
        text = MixBreakdown.new([measurement([repeat(1, 30), repeat(2, 30)])]).text
        assert_includes text, "mix: puma x0:5 c=4 (per endpoint)"
        home = text.lines.find { |l| l.start_with?("  /") }.split
        create = text.lines.find { |l| l.include?("create") }.split
        assert_equal ["/", "3", "75.0", "%", "30.0", "1.00", "1.00", "0", "2"], home
        assert_equal ["create", "1", "25.0", "%", "10.0", "5.00", "5.00", "4", "0"], create
      end

      def test_cells_without_a_mix_add_nothing
        plain = Result.new(requests: 5, duration_s: 1.0, requests_per_s: 5.0)
        assert_equal "", MixBreakdown.new([measurement([Measurement::Repeat.new(index: 1, result: plain)])]).text
      end
    end
  end
end
