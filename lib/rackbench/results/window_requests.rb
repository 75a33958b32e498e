# frozen_string_literal: true

module Rackbench
  # Every request of a load window, completed or not: the native engine
  # follows each request scheduled (open loop) or issued (closed loop) in the
  # window to its end, and one without a response when the run stopped (timed
  # out, in flight, or due and never sent) is kept as right-censored at its
  # age then: its latency is at least that (ext/rackbench_load/censor.h).
  #
  #   all = WindowRequests.new(result.window_requests)
  #   all.percentile(99)      # => Percentile(value_us: 3_200_000, bound: true): "p99 >= 3.2 s"
  #   all.unfinished_share    # 0.68: the share of the window's requests without a response
  #   WindowRequests.merge([a, b])  # threads, repeats, hosts: counts summed, histograms merged
  #
  # A percentile is read at its rank among completed latencies and censored
  # ages together. That value is a lower bound of the true percentile (a
  # censored request can only be slower than its age), and exact when at
  # least that rank's number of completed latencies lie at or below it.
  class WindowRequests
    # value_us: the percentile of all the window's requests; bound: true when
    # it is only a lower bound ("p99 >= value").
    Percentile = Struct.new(:value_us, :bound) do
      def value_ms = value_us && (value_us / 1000.0)
      def to_h = { "value_us" => value_us, "censored" => bound }
    end

    COUNTS = %w[total completed failed censored timeout in_flight unsent].freeze

    attr_reader :data

    # data: a Result's window_requests Hash (nil: an engine that does not follow its requests).
    def initialize(data)
      @data = data || {}
    end

    def self.merge(list)
      parts = list.map { |w| w.is_a?(WindowRequests) ? w.data : (w || {}) }
      merged = COUNTS.to_h { |key| [key, parts.sum { |p| p[key].to_i }] }
      merged["histogram"] = Stats.merge_histograms(parts.map { |p| p["histogram"] || [] })
      merged["censored_histogram"] = Stats.merge_histograms(parts.map { |p| p["censored_histogram"] || [] })
      new(merged)
    end

    def known? = !@data.empty?
    COUNTS.each { |key| define_method(key) { @data[key].to_i } }
    def completed_histogram = @data["histogram"] || []
    def censored_histogram = @data["censored_histogram"] || []

    # The share of the window's requests that had no response (censored), 0..1; nil when none were followed.
    def unfinished_share = total.positive? ? censored.fdiv(total) : nil

    # The percentile p (0..100, 100 the maximum) of completed and censored requests together.
    def percentile(p)
      done = completed_histogram.to_h
      ages = censored_histogram.to_h
      values = (done.keys | ages.keys).sort
      all = done.values.sum + ages.values.sum
      return Percentile.new(nil, false) if all.zero?

      wanted = [(all * p / 100.0).ceil, 1].max
      seen = seen_done = 0
      values.each do |value|
        seen += done.fetch(value, 0) + ages.fetch(value, 0)
        seen_done += done.fetch(value, 0)
        return Percentile.new(value, seen_done < wanted) if seen >= wanted
      end
      Percentile.new(values.last, true)
    end

    def to_h = @data
  end
end
