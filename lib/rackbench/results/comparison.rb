# frozen_string_literal: true

module Rackbench
  # Two measurements of the same endpoint and concurrency compared on one
  # metric: the ratio of their medians with a 95 % CI and a three-way verdict
  # (Stats explains the method). Created by reports, claims and `compare`.
  #
  #   c = Comparison.new(puma, thin)               # metric: requests_per_s
  #   c.ratio      # 1.23: how many times better a is than b (>1: a is better)
  #   c.ci         # Stats::Interval of that ratio
  #   c.verdict    # :a_better, :b_better or :no_difference
  #   c.to_s       # "puma threads 16 faster, 1.23x [1.15, 1.31]"
  #
  # For a metric where lower is better (latency, memory) the ratio is b/a, so
  # "better by 1.23x" reads the same way for every metric.
  class Comparison
    attr_reader :a, :b, :metric

    # paired: nil decides from the repeats' rounds; false for measurements of
    # different runs, whose round numbers mean nothing to each other.
    def initialize(a, b, metric: "requests_per_s", paired: nil)
      @a = a
      @b = b
      @metric = metric
      @paired = paired
      _, @better, @unit = Measurement.metric(metric)
    end

    def measured? = a.ok? && b.ok? && !a_values.empty? && !b_values.empty? && nonzero?

    # Paired when both were measured in the same rounds (interleaved order).
    def paired?
      return @paired unless @paired.nil?

      rounds = common_rounds
      rounds.size >= 2 && rounds.size == a.repeats.size && rounds.size == b.repeats.size
    end

    def ci
      return nil unless measured?

      @ci ||= begin
        x, y = paired? ? paired_values : [a_values, b_values]
        x, y = y, x if @better == :lower
        Stats.ratio_ci(x, y, paired: paired?)
      end
    end

    def ratio = ci&.estimate

    # :a_better, :b_better, :no_difference; :no_interval with one repeat on
    # a side (no CI, so no verdict); :not_measured.
    def verdict
      return :not_measured unless measured?
      return :no_interval if ci.level.zero?

      { above: :a_better, below: :b_better, contains: :no_difference }.fetch(Stats.side_of_one(ci))
    end

    # "within ±x %" of a no-difference verdict, as a share.
    def reach = ci && Stats.reach_from_one(ci)

    def word = @better == :higher && metric.include?("requests") ? "faster" : "better on #{metric}"

    def to_s
      case verdict
      when :not_measured then "not measured"
      when :no_interval then "#{a.label} vs #{b.label}: #{format_ratio(ratio)} (one repeat: no CI, so no verdict)"
      when :a_better then "#{a.label} #{word}, #{format_ratio(ratio)} #{interval_text}"
      when :b_better then "#{b.label} #{word}, #{format_ratio(1 / ratio)} #{inverse_interval_text}"
      else "no difference detected between #{a.label} and #{b.label} (within ±#{(reach * 100).round(1)} %; " \
           "#{format_ratio(ratio)} #{interval_text})"
      end
    end

    def to_h
      { "a" => a.label, "b" => b.label, "metric" => metric, "ratio" => ratio, "ci" => ci&.to_a,
        "paired" => measured? && paired?, "verdict" => verdict.to_s, "text" => to_s }
    end

    def format_ratio(value) = format("%.2fx", value)
    def interval_text = format("[%.2f, %.2f]", ci.low, ci.high)
    def inverse_interval_text = format("[%.2f, %.2f]", 1 / ci.high, 1 / ci.low)

    private

    # A ratio needs a denominator: a metric whose median is 0 (no errors at
    # all, say) cannot be compared as a ratio.
    def nonzero?
      denominator = @better == :lower ? a_values : b_values
      Stats.median(denominator).positive?
    end

    def a_values = a.values(metric)
    def b_values = b.values(metric)

    def common_rounds
      rounds_a = a.repeats.map(&:round)
      return [] if rounds_a.include?(nil)

      rounds_a & b.repeats.map(&:round)
    end

    def paired_values
      reader, = Measurement.metric(metric)
      by_round_b = b.repeats.to_h { |r| [r.round, r] }
      pairs = a.repeats.filter_map do |r|
        other = by_round_b[r.round]
        x = reader.call(r)
        y = other && reader.call(other)
        [x, y] if x && y
      end
      pairs.transpose.then { |t| t.empty? ? [[], []] : t }
    end
  end
end
