# frozen_string_literal: true

module Rackbench
  # How rackbench decides: pure functions over measured numbers, no I/O.
  #
  # The unit of measurement is a *repeat*: one load window on one deployment.
  # A cell (server config x endpoint x concurrency) is measured in several
  # repeats, spread over at least two deployments (fresh server starts), and
  # the configs being compared are measured alternately (Schedule), so slow
  # drift of the machine falls on all of them alike.
  #
  # - A cell's throughput is the MEDIAN of its repeats' req/s, with a 95 %
  #   percentile-bootstrap confidence interval (resampling repeats, a fixed
  #   seed, RESAMPLES draws). With fewer than about 6 repeats that interval is
  #   close to [min, max] and covers less than 95 %: the adaptive repeat rule
  #   (Measurement::Precision) keeps adding repeats while it is wider than the
  #   precision target.
  # - Its coefficient of variation (sample standard deviation / mean) is shown
  #   as a noise figure.
  # - Latency percentiles come from the merged histogram of all repeats; the
  #   between-repeat CI of p50 and p99 is the bootstrap CI of each repeat's own
  #   percentile.
  # - Two cells (same endpoint and concurrency) are compared by the RATIO OF
  #   MEDIANS, a/b, with a 95 % bootstrap CI. Where the repeats were measured in
  #   rounds (A and B alternating), pairs of the same round are resampled
  #   together (paired bootstrap), so drift common to a round cancels.
  # - The verdict has three outcomes: the CI lies above 1 (a faster), below 1
  #   (b faster), or it contains 1: "no difference detected (within ±x %)",
  #   x being the farther end of the CI from 1.
  # - A regression (rackbench compare, --baseline) is a ratio new/baseline whose
  #   CI lies wholly below 1 and whose point estimate is below 1 - threshold.
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

    # Percentile-bootstrap CI of statistic(xs) (default: the median).
    # nil for fewer than two values: one number has no interval.
    def bootstrap_ci(xs, level: LEVEL, resamples: RESAMPLES, seed: SEED, &statistic)
      return nil if xs.size < 2

      statistic ||= method(:median)
      rng = Random.new(seed)
      n = xs.size
      draws = Array.new(resamples) { statistic.call(Array.new(n) { xs[rng.rand(n)] }) }.sort
      tail = (1 - level) / 2
      Interval.new(quantile(draws, tail), quantile(draws, 1 - tail), statistic.call(xs), level)
    end

    # The ratio of medians a/b with a bootstrap CI. paired: a[i] and b[i] were
    # measured in the same round; they are resampled together (needs equal sizes).
    def ratio_ci(a, b, paired: false, level: LEVEL, resamples: RESAMPLES, seed: SEED)
      raise ArgumentError, "paired samples need equal sizes (#{a.size} vs #{b.size})" if paired && a.size != b.size

      estimate = median(a) / median(b)
      return Interval.new(estimate, estimate, estimate, 0.0) if a.size < 2 || b.size < 2

      rng = Random.new(seed)
      draws = Array.new(resamples) do
        if paired
          idx = Array.new(a.size) { rng.rand(a.size) }
          median(idx.map { |i| a[i] }) / median(idx.map { |i| b[i] })
        else
          median(Array.new(a.size) { a[rng.rand(a.size)] }) / median(Array.new(b.size) { b[rng.rand(b.size)] })
        end
      end.sort
      tail = (1 - level) / 2
      Interval.new(quantile(draws, tail), quantile(draws, 1 - tail), estimate, level)
    end

    # :above (the whole CI above 1), :below, or :contains.
    def side_of_one(interval)
      return :contains if interval.nil? || interval.level.zero?
      return :above if interval.low > 1
      return :below if interval.high < 1

      :contains
    end

    # The farther end of a CI from 1, as a share: "no difference within ±x".
    def reach_from_one(interval)
      [(interval.low - 1).abs, (interval.high - 1).abs].max
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
