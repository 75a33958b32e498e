# frozen_string_literal: true

require "test_helper"

module Rackbench
  class StatsTest < Minitest::Test
    def test_the_median_of_an_odd_and_an_even_count
      assert_equal 2.0, Stats.median([3.0, 1.0, 2.0])
      assert_equal 2.5, Stats.median([4.0, 1.0, 2.0, 3.0])
    end

    def test_quantiles_interpolate_between_order_statistics_like_r_type_seven
      sorted = [1.0, 2.0, 3.0, 4.0, 5.0]
      assert_equal 1.0, Stats.quantile(sorted, 0)
      assert_equal 5.0, Stats.quantile(sorted, 1)
      assert_in_delta 1.4, Stats.quantile(sorted, 0.1), 1e-12
      assert_in_delta 4.6, Stats.quantile(sorted, 0.9), 1e-12
    end

    def test_the_coefficient_of_variation_uses_the_sample_standard_deviation
      # mean 5, sample variance ((3^2 + 0 + 3^2) / 2) = 9, sd 3
      assert_in_delta 3.0, Stats.stddev([2.0, 5.0, 8.0]), 1e-12
      assert_in_delta 0.6, Stats.cv([2.0, 5.0, 8.0]), 1e-12
      assert_equal 0.0, Stats.stddev([7.0])
    end

    def test_which_side_of_one_an_interval_lies_on
      interval = ->(lo, hi) { Stats::Interval.new(lo, hi, (lo + hi) / 2, 0.95) }
      assert_equal :above, Stats.side_of_one(interval.call(1.1, 1.3))
      assert_equal :below, Stats.side_of_one(interval.call(0.7, 0.9))
      assert_equal :contains, Stats.side_of_one(interval.call(0.95, 1.02))
    end

    def test_histograms_merge_exactly_bucket_by_bucket
      merged = Stats.merge_histograms([[[100, 2], [200, 1]], [[50, 1], [200, 3]]])
      assert_equal [[50, 1], [100, 2], [200, 4]], merged
    end

    def test_histogram_percentiles_take_the_smallest_value_covering_the_share
      buckets = [[10, 50], [20, 40], [30, 9], [40, 1]]
      assert_equal 10, Stats.histogram_percentile(buckets, 50)
      assert_equal 20, Stats.histogram_percentile(buckets, 90)
      assert_equal 30, Stats.histogram_percentile(buckets, 99)
      assert_equal 40, Stats.histogram_percentile(buckets, 100)
      assert_in_delta 16.1, Stats.histogram_mean(buckets), 1e-12
    end

    def test_a_block_resample_keeps_runs_of_consecutive_values
      xs = (1..12).to_a
      out = Stats.block_resample(xs, 3, Random.new(1))
      assert_equal 12, out.size
      out.each_slice(3) { |block| assert_equal (block.first..(block.first + 2)).to_a, block }
    end

    def test_the_head_tail_ratio_of_a_clean_slow_start_is_exact
      ci = Stats.head_tail_ratio_ci([[300.0, 300.0] + ([1000.0] * 6)])
      assert_equal([0.3, 0.3], [ci.low, ci.high].map { |x| x.round(6) })
    end

    def test_the_head_tail_ratio_of_a_noisy_series_has_a_width
      ci = Stats.head_tail_ratio_ci([[500.0, 900.0, 1100.0, 800.0, 1000.0, 1200.0, 900.0, 1050.0]])
      assert_operator ci.low, :<, ci.estimate
      assert_operator ci.high, :>, ci.estimate
    end
  end
end
