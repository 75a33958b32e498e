# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # p99.9 and the longest request, shown only where the requests support
    # them (10 beyond the percentile), with the count behind them.
    class LatencyTailTest < Minitest::Test
      include SeedFixtures

      # A histogram of count requests: all at 2 ms but the slowest `slow` at 900 ms.
      def histogram(count, slow) = [[2000, count - slow], [900_000, slow]]

      def rows(*cells) = LatencyTail.new(cells).sections.first.parts.first.rows

      def test_a_cell_of_three_repeats_of_4000_requests_shows_p99_9_and_its_longest_request
        row, = rows(cell("puma x0:5", { "server" => "puma" }, requests: 4000, histogram: histogram(4000, 20)))
        assert_equal ["puma x0:5", "hello", "10", "12000"], row.first(4), "the three repeats' requests together"
        assert_equal ["2.00", "900.00", "900.00"], row.last(3), "60 of 12,000 at 900 ms: p99 below them, p99.9 among them"
      end

      def test_too_few_requests_for_p99_9_says_how_many_there_were
        row, = rows(cell("puma x0:5", { "server" => "puma" }, requests: 500, histogram: histogram(500, 1)))
        assert_equal ["1500", "2.00", "n=1500, too few for p99.9", "900.00"], row.last(4)
      end

      def test_nothing_measured_adds_no_table
        assert_empty LatencyTail.new([cell("thin", { "server" => "thin" }, status: "failed")]).sections
      end
    end
  end
end
