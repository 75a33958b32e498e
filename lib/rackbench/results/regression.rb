# frozen_string_literal: true

module Rackbench
  # Two runs side by side, cell by cell: the gate a project puts in its CI
  # when it upgrades a server or Ruby. Cells match by server config, endpoint
  # name (its path unless the suite names it) and concurrency. Each match is a
  # Comparison of new against baseline (unpaired: the runs' starts are
  # unrelated). Created by `rackbench compare` and `rackbench run --baseline`.
  #
  # The gate fails closed: a baseline cell that cannot be compared (the new
  # run's cell failed or is missing, either side has more than 1 % errors, or
  # the metric could not be formed) is :not_compared, and `compare` fails on
  # it. Outcomes of the others:
  #   :regressed     the interval lies wholly on the worse side of 1 and the
  #                  change is worse than the threshold
  #   :improved      the interval lies wholly on the better side of 1
  #   :equivalent    the interval lies within ±threshold of no change
  #   :inconclusive  none of these (`--strict` fails on it)
  #
  # `rackbench ab` compares two versions measured in one run, side by side:
  # paired: true compares them start by start (drift between starts
  # cancels), and key: says which cell of one version matches which of the
  # other (Versions#key: the suite's entry, endpoint, concurrency, rate).
  #
  #   r = Regression.new(baseline_measurements, new_measurements, threshold: 0.05)
  #   r.rows        # => [Row(label, endpoint, concurrency, baseline, current, comparison, outcome, reason)]
  #   r.regressed?  # any row's outcome is :regressed
  class Regression
    Row = Struct.new(:label, :endpoint, :concurrency, :baseline, :current, :comparison, :outcome, :reason,
                     keyword_init: true)

    OUTCOMES = %i[regressed improved equivalent inconclusive not_compared].freeze

    # Short names a user may give for a metric (--metric p99).
    ALIASES = { "p50" => "latency_p50_ms", "p90" => "latency_p90_ms", "p99" => "latency_p99_ms",
                "throughput" => "good_requests_per_s", "memory" => "memory_mb" }.freeze

    attr_reader :threshold, :metric

    def self.metric_name(name) = ALIASES.fetch(name, name)

    def initialize(baseline, current, threshold: 0.05, metric: "good_requests_per_s", paired: false, key: nil)
      @baseline = baseline
      @current = current
      @paired = paired
      @key = key
      @threshold = threshold
      @metric = self.class.metric_name(metric)
      _, @better, = Measurement.metric(@metric)
    end

    # One row per baseline cell (its order), matched or not.
    def rows
      @rows ||= @baseline.map do |before|
        now = @current.find { |m| key(m) == key(before) }
        comparison = now && Comparison.new(now, before, metric: metric, paired: @paired, margin: threshold)
        outcome, reason = outcome(before, now, comparison)
        Row.new(label: before.label, endpoint: before.endpoint, concurrency: before.concurrency, baseline: before,
                current: now, comparison: comparison, outcome: outcome, reason: reason)
      end
    end

    # Cells of the new run without a match in the baseline (they gate nothing).
    def unmatched
      keys = @baseline.map { |m| key(m) }
      @current.reject { |m| keys.include?(key(m)) }.map { |m| "#{m.label} #{m.path} c=#{m.concurrency}" }.uniq
    end

    # Every compared cell moved the same way: [median change of the metric
    # (natural direction, 0.1 = +10 %), cells], when at least DRIFT_CELLS
    # cells moved alike by more than half the threshold; else nil. Two runs
    # are unpaired: a machine that changed between them moves every cell,
    # which their intervals (each run's own starts) cannot tell from the
    # change under test; `rackbench ab` measures both side by side.
    DRIFT_CELLS = 3

    def drift
      logs = rows.filter_map { |r| r.comparison&.ci && r.outcome != :not_compared && Math.log(natural(r.comparison.ci)[2]) }
      return nil if logs.size < DRIFT_CELLS || !(logs.all?(&:positive?) || logs.all?(&:negative?))

      change = Math.exp(Stats.median(logs)) - 1
      change.abs > threshold / 2 ? [change, logs.size] : nil
    end

    def drift_text
      found = drift or return nil
      change, cells = found
      "every one of the #{cells} cells moved the same way (median #{format("%+.1f", change * 100)} %): the machine " \
        "may have changed between the runs, which an unpaired comparison cannot tell from the change under test; " \
        "`rackbench ab BASELINE NEW` measures both side by side"
    end

    def regressed? = rows.any? { |r| r.outcome == :regressed }
    def not_compared? = rows.any? { |r| r.outcome == :not_compared }
    def inconclusive? = rows.any? { |r| r.outcome == :inconclusive }
    def matched? = rows.any?(&:current)

    # The change of the new run against the baseline in the metric's own
    # direction, so worse always reads as worse: throughput "-12.3 %", p99
    # "+20.0 %", each with its interval.
    def change_text(row)
      ci = row.comparison&.ci
      return "-" unless ci && row.outcome != :not_compared

      low, high, estimate = natural(ci)
      text = format("%+.1f %%", (estimate - 1) * 100)
      ci.level.zero? ? text : "#{text} #{format("[%+.1f, %+.1f]", (low - 1) * 100, (high - 1) * 100)}"
    end

    private

    # The ratio new/baseline of the metric itself (not oriented): [low, high, estimate].
    def natural(interval)
      return [interval.low, interval.high, interval.estimate] if @better == :higher

      [1 / interval.high, 1 / interval.low, 1 / interval.estimate]
    end

    # The endpoint by its name (its path unless the suite names it), so a
    # suite can change what an endpoint does and still be compared.
    def key(measurement)
      return @key.call(measurement) if @key

      [measurement.config, measurement.endpoint, measurement.concurrency, measurement.offered_rate_per_s]
    end

    def outcome(before, now, comparison)
      return [:not_compared, "not in the new run"] unless now
      return [:not_compared, "the baseline cell failed: #{before.reason}"] unless before.ok?
      return [:not_compared, "failed in the new run: #{now.reason.to_s.lines.first.to_s.strip}"] unless now.ok?
      return [:not_compared, comparison.to_s] if comparison.errors?
      return [:not_compared, "#{metric} could not be formed on both sides"] unless comparison.measured?
      return [:inconclusive, "one start on a side: no interval"] if comparison.ci.level.zero?

      [decide(comparison.ci), nil]
    end

    def decide(interval)
      return :regressed if interval.high < 1 && interval.estimate < 1 - threshold
      return :improved if interval.low > 1
      return :equivalent if interval.low >= 1 / (1 + threshold) && interval.high <= 1 + threshold

      :inconclusive
    end
  end
end
