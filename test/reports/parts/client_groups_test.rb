# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # Fast and slow clients apart, summed over a cell's repeats; the paces
    # held beside those asked.
    class ClientGroupsTest < Minitest::Test
      include SeedFixtures

      def group(requests, histogram, errors, extra = {})
        { "connections" => extra.delete(:connections) || 4, "requests" => requests, "histogram" => histogram,
          "errors" => errors }.merge(extra)
      end

      def slow_cell
        clients = {
          "fast" => group(200, [[1000, 194], [3000, 6]], { "status" => 0, "check" => 0, "other" => 1 }),
          "slow" => group(3, [[2_500_000, 3]], { "status" => 0, "check" => 0, "other" => 0 },
                          connections: 2, "send_bytes_per_s" => 500.0, "read_bytes_per_s" => nil,
                          "paced" => { "send_bytes" => 1470.0, "send_s" => 3.0 })
        }
        repeats = [1, 2].map do |index|
          result = Result.new(requests: 203, duration_s: 2.0, requests_per_s: 101.5, clients: clients)
          Measurement::Repeat.new(index: index, deployment: 1, result: result, resources: {}, noise: {})
        end
        Measurement.new({ "position" => 1, "server" => "puma", "label" => "puma x0:5", "endpoint" => "upload",
                          "path" => "/upload", "concurrency" => 4, "status" => "ok", "engine" => "native" }, repeats)
      end

      def test_each_group_gets_its_rate_latency_errors_and_paces_over_all_repeats
        sections = ClientGroups.new([slow_cell]).sections
        assert_equal ["clients: puma x0:5 c=4 (fast and slow apart)"], sections.map(&:title)
        fast, slow = sections.first.parts.first.rows
        assert_equal ["fast", "4", "100.0", "1.00", "3.00", "2", "-", "-"], fast
        assert_equal ["slow", "2", "1.5", "2500.00", "2500.00", "0", "490 (500)", "-"], slow
      end

      def test_cells_without_slow_clients_add_no_section
        assert_empty ClientGroups.new([cell("puma", { "server" => "puma" })]).sections
      end
    end
  end
end
