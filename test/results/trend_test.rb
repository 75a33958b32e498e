# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The trend test against series whose truth is known: a line, a flat
  # series with noise, and noise alone drawn many times (how often it calls
  # a trend that is not there).
  class TrendTest < Minitest::Test
    def test_a_rising_line_is_significant_and_not_flat
      trend = Trend.new([100, 120, 140, 160, 180, 200])
      assert_in_delta 20.0, trend.slope, 1e-9
      assert trend.significant?
      refute trend.flat?
      assert_in_delta 100.0 / 150, trend.change_share, 1e-9
    end

    def test_a_flat_series_with_small_noise_is_flat
      assert Trend.new([1000, 1010, 995, 1005, 998, 1002]).flat?
    end

    def test_a_small_but_steady_drift_is_flat_when_it_stays_within_five_percent
      trend = Trend.new([1000, 1002, 1004, 1006, 1008, 1010])
      assert trend.significant?
      assert trend.flat?, "1 % over the series does not matter"
    end

    def test_a_falling_series_falls
      assert Trend.new([500, 470, 455, 430, 410, 380]).falling?
      refute Trend.new([500, 510, 505, 515, 520, 525]).falling?
    end

    # Independent noise (CV 20 %, as NOISE.md measured per window): the test
    # should call a trend in about 5 % of series (its level); more than 8 % means it is broken.
    def test_noise_alone_rarely_looks_like_a_trend
      rng = Random.new(42)
      trials = 2000
      called = trials.times.count do
        values = Array.new(6) { 1000 * (1 + (0.2 * gaussian(rng))) }
        !Trend.new(values).flat?(within: 0)
      end
      assert_operator called.fdiv(trials), :<, 0.08
      assert_operator called.fdiv(trials), :>, 0.01, "and it does call some: the test has power"
    end

    def test_a_fall_that_slows_down_is_still_steady_and_a_sawtooth_is_not
      assert Trend.new([2593, 1162, 1103, 993, 736, 656]).falling_steadily?
      refute Trend.new([1000, 800, 990, 810, 1005, 790]).falling_steadily?
    end

    # Mann-Kendall at 95 % on noise alone: about 2.5 % of series fall steadily (one side).
    def test_noise_alone_rarely_falls_steadily
      rng = Random.new(7)
      called = 2000.times.count { Trend.new(Array.new(8) { 1000 * (1 + (0.2 * gaussian(rng))) }).falling_steadily?(within: 0) }
      assert_operator called.fdiv(2000), :<, 0.04
    end

    def gaussian(rng) = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
  end
end
