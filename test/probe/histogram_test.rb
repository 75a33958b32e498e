# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    class HistogramTest < Minitest::Test
      def test_every_value_falls_inside_its_bucket_and_buckets_are_at_most_about_3_percent_wide
        [0, 1, 31, 32, 63, 64, 999, 50_000, 150_000, 12_345_678].each do |v|
          low, high = Histogram.bounds(Histogram.index(v))

          assert_operator low, :<=, v
          assert_operator v, :<, high
          assert_operator high - low, :<=, [1, (low * 0.032).ceil].max
        end
      end

      def test_a_percentile_is_the_midpoint_of_the_bucket_holding_that_rank
        counts = { Histogram.index(100) => 50, Histogram.index(10_000) => 50 }

        assert_in_delta 100, Histogram.percentile(counts, 50), 3
        assert_in_delta 10_000, Histogram.percentile(counts, 51), 300
        assert_nil Histogram.percentile({}, 50)
      end
    end
  end
end
