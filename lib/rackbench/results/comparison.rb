# frozen_string_literal: true

require_relative "comparison/ratio_windows"

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
  # - equivalent: the equivalence interval (#equivalence_ci: level 1 - 2
  #   alpha, 90 % beside a 95 % interval: Schuirmann's two one-sided tests,
  #   each at alpha) lies within ±margin of 1. A difference that is real but
  #   smaller than the margin is equivalent too, and the text says which side
  #   it favours ("A 0.8 % lower").
  # - a_better / b_better: otherwise, the interval excludes 1; the text says
  #   how small the difference may be when the interval reaches into the margin.
  # - inconclusive: neither; #more_starts estimates how many more starts would
  #   settle it at this spread (printed only when that is within reach:
  #   at most REACH times the starts spent; otherwise the text names the spread).
  # - errors: a throughput comparison where a side has more than ERROR_SHARE of
  #   its requests failing gets no speed verdict (a server that fails fast is
  #   not faster); its errors are the finding.
  #
  # Throughput and other per-window metrics: the ratio is exp(mean over
  # starts of the difference of start-mean logs). Throughput of configs
  # that also have ratio windows (suite key ratio: duet; Repeat#ratio?)
  # takes its ratio from those, paired by round, as long as both servers
  # kept the CPU busy in them (Measurement::DuetBusy): loaded at once, other
  # processes' interference hits both alike; otherwise from the windows in
  # turns, like every figure beside it. Latency percentiles: the
  # ratio of the two figures (each from its merged histogram), with the
  # spread of the per-start log ratios (batch means) for its interval, so a
  # verdict and the figures beside it always agree. For a metric where lower
  # is better (latency, memory) the ratio is b/a, so "better by 1.23x" reads
  # the same way for every metric.
  class Comparison
    MARGIN = 0.05
    ERROR_SHARE = 0.01
    REACH = 3 # more starts worth naming: at most this many times those spent
    PERCENTILES = { "latency_p50_ms" => 50, "latency_p90_ms" => 90, "latency_p99_ms" => 99 }.freeze
    WORDS = { "requests_per_s" => "faster", "good_requests_per_s" => "faster", "latency_p50_ms" => "lower p50",
              "latency_p90_ms" => "lower p90", "latency_p99_ms" => "lower p99", "memory_mb" => "smaller" }.freeze

    attr_reader :a, :b, :metric, :margin, :level

    # paired: nil decides from the repeats' rounds; false for measurements of
    # different runs, whose starts have nothing in common. errors: :ignore
    # gives a verdict on the metric even where a side fails requests (a
    # seed's claim on good responses, Article::Checks).
    def initialize(a, b, metric: "good_requests_per_s", paired: nil, margin: MARGIN, level: Stats::LEVEL, errors: :verdict)
      @errors = errors
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
      return true if ratio_windows?

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
      return :errors if errors? && @errors != :ignore
      return :no_interval if ci.level.zero?
      return :equivalent if within_margin?
      return :a_better if ci.low > 1
      return :b_better if ci.high < 1

      :inconclusive
    end

    # The equivalence interval (level 1 - 2 alpha: two one-sided tests at
    # alpha each) lies within ±margin of 1: the configs are equivalent, even
    # when the interval excludes 1 (a difference too small to matter). False
    # without an interval.
    def within_margin?
      return false unless measured? && !ci.level.zero?

      eq = equivalence_ci
      eq.low >= 1 / (1 + margin) && eq.high <= 1 + margin
    end

    # The interval the equivalence test reads: at level 1 - 2 (1 - level),
    # with the run's sequential design at that level when it had one.
    def equivalence_ci
      return nil unless measured? && !ci.level.zero?

      @equivalence_ci ||= begin
        eq_level = 1 - (2 * (1 - level))
        se, df = spread_at(eq_level, equivalence: true)
        StartSample::LogInterval.around(estimate_logs, StudentT.critical(eq_level, df) * se, eq_level)
      end
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
      (paired? && looks_to(target, now)) || ((now * ((half_width / target)**2)).ceil - now).clamp(1, 10_000)
    end

    # Paired: the fewest more starts m after which an interval of the same
    # spread would be within target: its critical value falls with the
    # starts (the t quantile's degrees of freedom, a sequential design's
    # later looks), so a spread that is narrow but seen over few starts is
    # not taken for a wide one. nil when none within REACH times the starts.
    def looks_to(target, now)
      spread = Stats.stddev(paired_logs)
      design = a.interval_options[:sequential]
      ((now + 1)..(now * (REACH + 1))).find do |total|
        critical = design ? design.critical(total) : StudentT.critical(level, total - 1)
        critical * spread / Math.sqrt(total) <= target
      end&.-(now)
    end

    # more_starts when it is within reach (at most REACH times the starts spent).
    def reachable_more_starts = more_starts&.then { |n| n <= REACH * starts ? n : nil }

    def errors? = throughput? && [a, b].any? { |m| m.error_share.to_f > ERROR_SHARE }

    def word = WORDS.fetch(metric) { "better on #{metric}" }

    def to_s
      case verdict
      when :not_measured then "not measured"
      when :errors then errors_text
      when :no_interval then "#{a.label} vs #{b.label}: #{format_ratio(ratio)} (one start each: no interval, so no verdict)"
      when :a_better then "#{a.label} #{word}, #{format_ratio(ratio)} #{interval_text}#{small_text(ci.low)}"
      when :b_better then "#{b.label} #{word}, #{format_ratio(1 / ratio)} #{inverse_interval_text}#{small_text(1 / ci.high)}"
      when :equivalent then equivalent_text
      else inconclusive_text
      end
    end

    # Whether the ratio comes from ratio windows (RatioWindows#read?).
    def ratio_windows? = throughput_metric? && @paired != false && ratio_source.read?

    def to_h
      { "a" => a.label, "b" => b.label, "metric" => metric, "ratio" => ratio, "ci" => ci&.to_a, "level" => ci&.level,
        "paired" => measured? && paired?, "starts" => measured? ? starts : nil, "margin" => margin,
        "equivalence_ci" => equivalence_ci&.to_a,
        "p_value" => p_value, "more_starts" => more_starts, "verdict" => verdict.to_s, "text" => to_s }
        .merge(ratio_windows? ? { "ratio_from" => "duet windows" } : {})
    end

    def format_ratio(value) = format("%.2fx", value)
    def interval_text = format("[%.2f, %.2f]%s", ci.low, ci.high, source_text)
    def inverse_interval_text = format("[%.2f, %.2f]%s", 1 / ci.high, 1 / ci.low, source_text)
    def source_text = ratio_windows? ? " in duet windows" : ""

    # Starts behind the interval: pairs of starts when paired, else the fewer of the two sides.
    def starts = paired? ? paired_logs.size : [side_logs(a).size, side_logs(b).size].min

    def throughput_metric? = metric.include?("requests_per_s")

    # The latency percentile compared (50, 90, 99), nil for any other metric.
    def percentile = PERCENTILES[metric]

    private

    def throughput? = throughput_metric?
    def pct(share) = "#{(share * 100).round(1)} %"

    def errors_text
      shares = [a, b].select { |m| m.error_share.to_f > ERROR_SHARE }.map { |m| "#{m.label} #{pct(m.error_share)}" }
      "no speed verdict between #{a.label} and #{b.label}: requests failed (#{shares.join(", ")})"
    end

    def inconclusive_text
      "inconclusive between #{a.label} and #{b.label}: #{format_ratio(ratio)} #{interval_text}; #{limit_text}"
    end

    # What would settle an inconclusive verdict: more starts when within
    # reach, else the spread between starts that keeps it open.
    def limit_text
      more = reachable_more_starts
      return "about #{more} more start#{"s" unless more == 1} would settle ±#{pct(margin)}" if more

      variance = paired? ? Stats.stddev(paired_logs)**2 : [a, b].sum { |m| Stats.stddev(side_logs(m))**2 }
      spread = Math.sqrt(Math.exp(variance) - 1)
      "the ratio's spread between starts here is #{pct(spread)}, too wide to settle ±#{pct(margin)} within " \
        "#{REACH * starts} more starts: see rackbench calibrate#{duet_hint}"
    end

    # Throughput measured in turns: a duet (Duet) would put the configs under
    # the same interference, where both keep the CPU busy (Measurement::DuetBusy).
    def duet_hint
      return "" if !throughput? || [a, b].any? { |m| m.repeats.any? { |r| r.noise&.key?("duet") } }
      return "" if [a, b].any? { |m| m.respond_to?(:ratio_repeats) && !m.ratio_repeats.empty? } # tried: a server idled

      ", or measure CPU-bound configs' ratio as a duet (--ratio duet)"
    end

    # "equivalent within ±5 % (1.01x [0.97, 1.04])"; a difference the
    # interval shows but that is smaller than the margin says its side.
    def equivalent_text
      side = if ci.low > 1 then "; #{a.label} #{word} by #{pct(ratio - 1)}"
             elsif ci.high < 1 then "; #{b.label} #{word} by #{pct((1 / ratio) - 1)}"
             end
      eq = equivalence_ci
      "#{a.label} and #{b.label} equivalent within ±#{pct(margin)} (#{format_ratio(ratio)}, " \
        "#{(eq.level * 100).round} % [#{format("%.3f", eq.low)}, #{format("%.3f", eq.high)}]#{source_text}#{side})"
    end

    # A difference whose interval reaches into the margin: how small it may be.
    def small_text(low_ratio) = low_ratio < 1 + margin ? " (by at least #{pct(low_ratio - 1)})" : ""

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

      @spread = spread_at(level)
    end

    # equivalence: the spread the equivalence test reads (a sequential run's
    # equivalence looks have their own spending: Sequential#for_equivalence).
    def spread_at(at_level, equivalence: false)
      return welch_spread(side_logs(a), side_logs(b)) unless paired?

      options = a.interval_options
      if (design = options[:sequential])
        options = options.merge(sequential: equivalence ? design.for_equivalence(at_level) : design.at_level(at_level))
      end
      StartSample.standard_error(paired_logs, level: at_level, **options)
    end

    # Two runs' sides, unpaired. A side measured by a sequential run has
    # its variance widened as its own repeated interval is (its run stopped
    # by looking): the standard error times critical(n) / t(level, n - 1).
    def welch_spread(a_logs, b_logs)
      return nil if a_logs.size < 2 || b_logs.size < 2

      va = ((Stats.stddev(a_logs) * looks_factor(a, a_logs.size))**2) / a_logs.size
      vb = ((Stats.stddev(b_logs) * looks_factor(b, b_logs.size))**2) / b_logs.size
      [Math.sqrt(va + vb), welch_df(a_logs, b_logs)]
    end

    def looks_factor(measurement, starts)
      design = measurement.respond_to?(:sequential) && measurement.sequential
      design ? design.critical(starts) / StudentT.critical(level, starts - 1) : 1.0
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
        by_round_b = pair_repeats(b).to_h { |r| [r.round, r] }
        pairs = pair_repeats(a).filter_map { |r| (other = by_round_b[r.round]) && [r, other] }
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
      return nil unless Measurement.estimable_from?(merged.sum(&:last), percentile)

      value = Stats.histogram_percentile(merged, percentile)
      value&.positive? ? value : nil
    end

    # The windows a paired ratio reads: the ratio windows RatioWindows
    # pairs, else the windows in turns.
    def pair_repeats(measurement) = ratio_windows? ? ratio_source.repeats_of(measurement) : measurement.repeats

    def ratio_source = @ratio_source ||= RatioWindows.new(a, b)

    def common_rounds
      rounds_a = a.repeats.map(&:round)
      return [] if rounds_a.include?(nil)

      rounds_a & b.repeats.map(&:round)
    end
  end
end
