# frozen_string_literal: true

module Rackbench
  # Two measurements of the same endpoint and concurrency compared on one
  # metric: the ratio of their figures with an interval from server starts
  # (StartSample: Student t over starts, paired by start when both configs
  # were started side by side) and one of four outcomes. Created by Verdicts,
  # claims, Regression and `compare`.
  #
  #   c = Comparison.new(puma, thin)   # metric: good_requests_per_s (errors left out)
  #   c.ratio      # 1.23: how many times better a is than b (>1: a is better)
  #   c.ci         # Stats::Interval of that ratio (level 0.0 when one start gives no interval)
  #   c.verdict    # :a_better, :b_better, :equivalent, :inconclusive; or :errors,
  #                # :no_interval, :not_measured when no verdict can be given
  #   c.to_s       # "puma threads 16 faster, 1.23x [1.15, 1.31]"
  #
  # - a_better / b_better: the interval excludes 1.
  # - equivalent: the interval lies within ±margin of 1 (an equivalence test).
  # - inconclusive: neither; #more_starts estimates how many more starts would
  #   settle it at this spread.
  # - errors: a throughput comparison where a side has more than ERROR_SHARE of
  #   its requests failing gets no speed verdict (a server that fails fast is
  #   not faster); its errors are the finding.
  #
  # Throughput and other per-window metrics: the ratio is exp(mean over
  # starts of the difference of start-mean logs). Latency percentiles: the
  # ratio of the two figures (each from its merged histogram), with the
  # spread of the per-start log ratios (batch means) for its interval, so a
  # verdict and the figures beside it always agree. For a metric where lower
  # is better (latency, memory) the ratio is b/a, so "better by 1.23x" reads
  # the same way for every metric.
  class Comparison
    MARGIN = 0.05
    ERROR_SHARE = 0.01
    PERCENTILES = { "latency_p50_ms" => 50, "latency_p90_ms" => 90, "latency_p99_ms" => 99 }.freeze
    WORDS = { "requests_per_s" => "faster", "good_requests_per_s" => "faster", "latency_p50_ms" => "lower p50",
              "latency_p90_ms" => "lower p90", "latency_p99_ms" => "lower p99", "memory_mb" => "smaller" }.freeze

    attr_reader :a, :b, :metric, :margin, :level

    # paired: nil decides from the repeats' rounds; false for measurements of
    # different runs, whose starts have nothing in common.
    def initialize(a, b, metric: "good_requests_per_s", paired: nil, margin: MARGIN, level: Stats::LEVEL)
      @a = a
      @b = b
      @metric = metric
      @paired = paired
      @margin = margin
      @level = level
      _, @better, @unit = Measurement.metric(metric)
    end

    def measured? = a.ok? && b.ok? && !estimate_logs.nil?

    # Paired when both were measured in the same rounds (interleaved order).
    def paired?
      return @paired unless @paired.nil?

      rounds = common_rounds
      rounds.size >= 2 && rounds.size == a.repeats.size && rounds.size == b.repeats.size
    end

    def ci
      return nil unless measured?

      @ci ||= begin
        centre = estimate_logs
        half = half_width
        half ? StartSample::LogInterval.around(centre, half, level) : Stats::Interval.new(*[Math.exp(centre)] * 3, 0.0)
      end
    end

    def ratio = ci&.estimate

    def verdict
      return :not_measured unless measured?
      return :errors if errors?
      return :no_interval if ci.level.zero?
      return :a_better if ci.low > 1
      return :b_better if ci.high < 1
      return :equivalent if within_margin?

      :inconclusive
    end

    # The whole interval lies within ±margin of 1 (the equivalence test; an
    # interval can also exclude 1 and still be within it: a difference too
    # small to matter). False without an interval.
    def within_margin?
      measured? && !ci.level.zero? && ci.low >= 1 / (1 + margin) && ci.high <= 1 + margin
    end

    # A verdict that says one side is better.
    def decided? = %i[a_better b_better].include?(verdict)

    # Two-sided p-value of "no difference" (Student t on the log ratio), for
    # a run's correction for many comparisons (Multiplicity).
    def p_value
      return nil unless measured? && !ci.level.zero?

      se = standard_error
      return (estimate_logs.zero? ? 1.0 : 0.0) if se.zero?

      StudentT.two_sided_p(estimate_logs / se, degrees_of_freedom)
    end

    # How many more starts (of each config) would likely settle an
    # inconclusive verdict: the interval shrinks as 1 / sqrt(starts), and it
    # must either clear 1 or fit within the margin.
    def more_starts
      return nil unless verdict == :inconclusive

      distance = estimate_logs.abs
      room = Math.log(1 + margin) - distance
      target = [room, distance].max
      return nil unless target.positive?

      now = starts
      ((now * ((half_width / target)**2)).ceil - now).clamp(1, 10_000)
    end

    def errors? = throughput? && [a, b].any? { |m| m.error_share.to_f > ERROR_SHARE }

    def word = WORDS.fetch(metric) { "better on #{metric}" }

    def to_s
      case verdict
      when :not_measured then "not measured"
      when :errors then errors_text
      when :no_interval then "#{a.label} vs #{b.label}: #{format_ratio(ratio)} (one start each: no interval, so no verdict)"
      when :a_better then "#{a.label} #{word}, #{format_ratio(ratio)} #{interval_text}"
      when :b_better then "#{b.label} #{word}, #{format_ratio(1 / ratio)} #{inverse_interval_text}"
      when :equivalent then "#{a.label} and #{b.label} equivalent within ±#{pct(margin)} " \
                            "(#{format_ratio(ratio)} #{interval_text})"
      else inconclusive_text
      end
    end

    def to_h
      { "a" => a.label, "b" => b.label, "metric" => metric, "ratio" => ratio, "ci" => ci&.to_a, "level" => ci&.level,
        "paired" => measured? && paired?, "starts" => measured? ? starts : nil, "margin" => margin,
        "p_value" => p_value, "more_starts" => more_starts, "verdict" => verdict.to_s, "text" => to_s }
    end

    def format_ratio(value) = format("%.2fx", value)
    def interval_text = format("[%.2f, %.2f]", ci.low, ci.high)
    def inverse_interval_text = format("[%.2f, %.2f]", 1 / ci.high, 1 / ci.low)

    # Starts behind the interval: pairs of starts when paired, else the fewer of the two sides.
    def starts = paired? ? paired_logs.size : [side_logs(a).size, side_logs(b).size].min

    def throughput_metric? = metric.include?("requests_per_s")

    private

    def throughput? = throughput_metric?
    def percentile = PERCENTILES[metric]
    def pct(share) = "#{(share * 100).round(1)} %"

    def errors_text
      shares = [a, b].select { |m| m.error_share.to_f > ERROR_SHARE }.map { |m| "#{m.label} #{pct(m.error_share)}" }
      "no speed verdict between #{a.label} and #{b.label}: requests failed (#{shares.join(", ")})"
    end

    def inconclusive_text
      more = more_starts
      hint = more ? "; about #{more} more start#{"s" unless more == 1} would settle ±#{pct(margin)}" : ""
      "inconclusive between #{a.label} and #{b.label}: #{format_ratio(ratio)} #{interval_text}#{hint}"
    end

    # The log of the ratio (better-is-above-1), or nil when it cannot be formed.
    def estimate_logs
      return @estimate_logs if defined?(@estimate_logs)

      @estimate_logs = if percentile
                         x = a.latency_ms(percentile)
                         y = b.latency_ms(percentile)
                         x&.positive? && y&.positive? ? oriented(Math.log(x) - Math.log(y)) : nil
                       elsif paired?
                         logs = paired_logs
                         logs.empty? ? nil : oriented(Stats.mean(logs))
                       else
                         la = side_logs(a)
                         lb = side_logs(b)
                         la.empty? || lb.empty? ? nil : oriented(Stats.mean(la) - Stats.mean(lb))
                       end
    end

    def oriented(log_ratio) = @better == :lower ? -log_ratio : log_ratio

    # Half the interval's width on the log scale; nil without two starts.
    def half_width
      se, df = spread
      se && (StudentT.critical(level, df) * se)
    end

    def standard_error = spread&.first
    def degrees_of_freedom = spread&.last

    # [standard error, degrees of freedom] of the log ratio: paired, the
    # per-start log ratios' (StartSample.standard_error: after a two-stage
    # run, the wider of Stein's and every start's); else Welch's.
    def spread
      return @spread if defined?(@spread)

      @spread = if paired?
                  StartSample.standard_error(paired_logs, level: level, first_stage: a.first_stage, rule: a.interval_rule)
                else
                  welch_spread(side_logs(a), side_logs(b))
                end
    end

    def welch_spread(a_logs, b_logs)
      return nil if a_logs.size < 2 || b_logs.size < 2

      se = Math.sqrt(((Stats.stddev(a_logs)**2) / a_logs.size) + ((Stats.stddev(b_logs)**2) / b_logs.size))
      [se, welch_df(a_logs, b_logs)]
    end

    # Welch-Satterthwaite degrees of freedom of two independent means.
    def welch_df(x, y)
      vx = (Stats.stddev(x)**2) / x.size
      vy = (Stats.stddev(y)**2) / y.size
      return [x.size, y.size].min - 1.0 if (vx + vy).zero?

      ((vx + vy)**2) / (((vx**2) / (x.size - 1)) + ((vy**2) / (y.size - 1)))
    end

    # One log value per start of a side: the start's mean log (per-window
    # metrics) or the log of its own percentile (latency percentiles).
    def side_logs(m)
      if percentile
        (m.start_latencies_us(percentile) || []).map { |us| Math.log(us) }
      else
        m.sample(metric).start_logs
      end
    end

    # Per start of a, the difference of logs against b's windows of the same
    # rounds (configs started side by side pair up by start).
    def paired_logs
      @paired_logs ||= begin
        by_round_b = b.repeats.to_h { |r| [r.round, r] }
        pairs = a.repeats.filter_map { |r| (other = by_round_b[r.round]) && [r, other] }
        pairs.group_by { |r, _| r.deployment }.sort_by { |start, _| start.to_i }.filter_map do |_, list|
          start_log_difference(list.map(&:first), list.map(&:last))
        end
      end
    end

    def start_log_difference(xs, others)
      lx = start_log(xs)
      ly = start_log(others)
      lx && ly ? lx - ly : nil
    end

    # One start's log value of a side: its pooled percentile, or its windows' mean log.
    def start_log(repeats)
      if percentile
        value = pooled_percentile(repeats)
        return value && Math.log(value)
      end
      reader, = Measurement.metric(metric)
      logs = repeats.filter_map { |r| reader.call(r) }.select(&:positive?).map { |v| Math.log(v) }
      logs.empty? ? nil : Stats.mean(logs)
    end

    def pooled_percentile(repeats)
      hists = repeats.map { |r| r.result.histogram }
      return nil unless hists.all? { |h| h.is_a?(Array) && !h.empty? }

      merged = Stats.merge_histograms(hists)
      return nil unless merged.sum(&:last) * (100 - percentile) / 100.0 >= Measurement::TAIL_REQUESTS

      value = Stats.histogram_percentile(merged, percentile)
      value&.positive? ? value : nil
    end

    def common_rounds
      rounds_a = a.repeats.map(&:round)
      return [] if rounds_a.include?(nil)

      rounds_a & b.repeats.map(&:round)
    end
  end
end
