# frozen_string_literal: true

module Rackbench
  # Pure numeric helpers, no I/O: means, spreads, type-7 quantiles, exact
  # histogram merges and the interval type every figure carries.
  #
  # How rackbench decides is not here: a cell's interval comes from its
  # server starts (StartSample: Student t over start means, log scale,
  # Stein's two-stage rule when the run chose its number of starts), and two
  # cells are compared by Comparison (paired by start, four outcomes). The
  # README's "How rackbench decides" says it for users, once.
  #
  # The one bootstrap left serves a figure with no starts to lean on: the
  # warm-up claim's head/tail ratio of per-second series (moving blocks, as
  # neighbouring seconds are correlated).
  module Stats
    LEVEL = 0.95
    RESAMPLES = 2000
    SEED = 20_161_122

    # A confidence interval around an estimate.
    Interval = Struct.new(:low, :high, :estimate, :level) do
      # Half the interval's width as a share of the estimate (0.03 = ±3 %).
      def half_width_share
        return Float::INFINITY unless estimate&.positive?

        (high - low) / 2.0 / estimate
      end

      def cover?(value) = value.between?(low, high)
      def to_a = [low, high]
    end

    module_function

    def mean(xs)
      xs.sum(0.0) / xs.size
    end

    def median(xs)
      quantile(xs.sort, 0.5)
    end

    # Sample standard deviation (n - 1); 0 for fewer than two values.
    def stddev(xs)
      return 0.0 if xs.size < 2

      m = mean(xs)
      Math.sqrt(xs.sum(0.0) { |x| (x - m)**2 } / (xs.size - 1))
    end

    # Coefficient of variation: stddev / mean.
    def cv(xs)
      m = mean(xs)
      m.zero? ? 0.0 : stddev(xs) / m
    end

    # The q-quantile (0..1) of sorted values, linearly interpolated between
    # order statistics (Hyndman & Fan type 7, R's and numpy's default).
    def quantile(sorted, q)
      raise ArgumentError, "no values" if sorted.empty?

      h = (sorted.size - 1) * q
      lo = sorted[h.floor]
      hi = sorted[h.ceil]
      lo + ((hi - lo) * (h - h.floor))
    end

    # :above (the whole CI above 1), :below, or :contains.
    def side_of_one(interval)
      return :contains if interval.nil? || interval.level.zero?
      return :above if interval.low > 1
      return :below if interval.high < 1

      :contains
    end

    # Moving-block resample of a series: blocks of `block` consecutive values
    # drawn with replacement until the length is reached. Per-second counts are
    # autocorrelated; resampling blocks keeps that, where single values would
    # give an interval too narrow.
    def block_resample(xs, block, rng)
      size = block.clamp(1, xs.size)
      out = []
      out.concat(xs[rng.rand(xs.size - size + 1), size]) while out.size < xs.size
      out.first(xs.size)
    end

    # How fast a server ran in its first seconds against its last ones:
    # for each series (one per cold start), mean(first quarter) / mean(last
    # half), averaged over the series, with a moving-block bootstrap CI.
    def head_tail_ratio_ci(series_list, block: 3, level: LEVEL, resamples: RESAMPLES, seed: SEED)
      parts = series_list.map { |xs| [xs.first([xs.size / 4, 1].max), xs.last(xs.size / 2)] }
      ratio = ->(pairs) { mean(pairs.map { |head, tail| mean(head) / mean(tail) }) }
      rng = Random.new(seed)
      draws = Array.new(resamples) do
        ratio.call(parts.map { |head, tail| [block_resample(head, block, rng), block_resample(tail, block, rng)] })
      end.sort
      tail = (1 - level) / 2
      Interval.new(quantile(draws, tail), quantile(draws, 1 - tail), ratio.call(parts), level)
    end

    # Histograms are [[value_us, count], ...] sorted by value. Merging adds the
    # counts of equal values: exact, whatever the order of the inputs.
    def merge_histograms(histograms)
      histograms.each_with_object(Hash.new(0)) do |buckets, sum|
        buckets.each { |value, count| sum[value] += count }
      end.sort_by(&:first)
    end

    # The value at percentile p (0..100) of a histogram: the smallest recorded
    # value with at least p % of the counts at or below it.
    def histogram_percentile(buckets, p)
      total = buckets.sum(&:last)
      return nil if total.zero?

      wanted = [(total * p / 100.0).ceil, 1].max
      seen = 0
      buckets.each do |value, count|
        seen += count
        return value if seen >= wanted
      end
      buckets.last.first
    end

    def histogram_mean(buckets)
      total = buckets.sum(&:last)
      total.zero? ? nil : buckets.sum { |v, c| v * c }.fdiv(total)
    end
  end
end
