# frozen_string_literal: true

module Rackbench
  # Whether a series of figures (per-second throughput of a warm-up, one
  # cell's throughput window after window) drifts: the least-squares slope,
  # its t statistic against no slope, and the change the slope makes over
  # the series as a share of its mean. Used by SteadyWarmup (is the server
  # warm yet?) and Measurement::Warnings (do writes make the app slower?).
  #
  #   trend = Trend.new([100, 120, 140, 150, 155, 157])
  #   trend.slope           # => 11.6 per step
  #   trend.change_share    # => 0.40: 40 % of the mean over the series
  #   trend.significant?    # => true: |t| above Student's 95 % value
  #   trend.flat?           # => false: significant and more than ±5 %
  #
  # Successive per-second counts are autocorrelated, which makes the t test
  # call a trend more often than it should: a warm-up then runs longer than
  # needed, never shorter.
  class Trend
    CHANGE_SHARE = 0.05 # a drift under ±5 % over the series is flat, significant or not

    attr_reader :values

    def initialize(values)
      @values = values.map(&:to_f)
    end

    def size = values.size
    def mean = values.sum / size

    def slope
      return 0.0 if size < 2

      xs = (0...size).map(&:to_f)
      x_mean = xs.sum / size
      sxx = xs.sum { |x| (x - x_mean)**2 }
      xs.zip(values).sum { |x, y| (x - x_mean) * (y - mean) } / sxx
    end

    # The slope over its standard error; 0 when the series is too short, and
    # infinite when the points lie exactly on a sloped line.
    def t_statistic
      return 0.0 if size < 3

      b = slope
      a = mean - (b * (size - 1) / 2.0)
      residual = values.each_with_index.sum { |y, x| (y - a - (b * x))**2 }
      sxx = (0...size).sum { |x| (x - ((size - 1) / 2.0))**2 }
      se = Math.sqrt(residual / (size - 2) / sxx)
      return (b.zero? ? 0.0 : Float::INFINITY * (b <=> 0)) if se.zero?

      b / se
    end

    # level: 0.95 or 0.99, two-sided.
    def significant?(level: 0.95) = size >= 3 && t_statistic.abs >= critical_t(level)

    # Student's t critical value, two-sided at level, for this series' n - 2 degrees of freedom.
    def critical_t(level = 0.95) = StudentT.critical(level, size - 2)

    def change_share = mean.zero? ? 0.0 : slope * (size - 1) / mean

    # No trend worth the name: not significant, or too small to matter.
    def flat?(within: CHANGE_SHARE) = !significant? || change_share.abs <= within

    # Mann-Kendall's S over its standard deviation (with continuity
    # correction): how consistently later values are lower (negative) or
    # higher than earlier ones, whatever the shape of the drift; a table
    # that grows slows an app fast, then less.
    def kendall_z
      return 0.0 if size < 3

      s = (0...size).to_a.combination(2).sum { |i, j| values[j] <=> values[i] }
      sd = Math.sqrt(size * (size - 1) * ((2 * size) + 5) / 18.0)
      s.zero? ? 0.0 : (s - (s <=> 0)) / sd
    end

    # Values that keep falling: Mann-Kendall at 95 % two-sided (z <= -1.96;
    # noise alone falls so in about 2.5 % of series), and a fall of more than
    # within of the mean over the series.
    def falling_steadily?(within: CHANGE_SHARE) = kendall_z <= -1.96 && change_share < -within

    def falling?(within: CHANGE_SHARE, level: 0.95) = significant?(level: level) && change_share < -within
    def rising?(within: CHANGE_SHARE, level: 0.95) = significant?(level: level) && change_share > within
  end
end
