# frozen_string_literal: true

module Rackbench
  module Probe
    # Where a cell's latency went, from the probe's windows (Probe::Window,
    # stored per repeat as resources["explain"]): total latency inside the
    # server (queue + app) at p50 and p99, each split into queue, app and GC
    # as the means of the requests at that percentile; the queue and app
    # times' own percentiles; GC per request; and 95 % intervals over server
    # starts, the model behind every interval rackbench prints (StartSample):
    # each start's windows merged, that start's figure taken, and the
    # figure of all starts times exp(± t * spread / sqrt(starts)) on the log
    # scale, as Measurement#latency_ci_ms does for the engine's latency.
    #
    #   b = Breakdown.of(measurement.repeats)   # or Breakdown.new([window_h, ...], starts: [1, 1, 2, ...])
    #   b.at(99)    # => {"total_ms" => 212.0, "queue_ms" => 160.1, "app_ms" => 51.9, "gc_ms" => 0.0}
    #   b.queue_ms(50), b.app_ms(50), b.gc_ms_per_request, b.ci(:app_ms, 50)
    class Breakdown
      # Why no GVL wait is shown: Ruby's thread instrumentation (3.2+) would
      # measure it, and the probe does not use it yet on any Ruby (this
      # machine runs 3.1, where it does not exist: nothing here could test it).
      GVL = if RUBY_VERSION < "3.2"
              "not recorded: it needs thread instrumentation (Ruby 3.2+); not available on Ruby #{RUBY_VERSION}"
            else
              "not recorded: the probe does not use Ruby #{RUBY_VERSION}'s thread instrumentation yet"
            end.freeze

      attr_reader :windows, :merged

      # A measurement's repeats: each one's probe window and its server start.
      def self.of(repeats) = new(repeats.map { |r| r.resources["explain"] }, starts: repeats.map(&:deployment))

      # windows: one Probe::Window hash per repeat (nil for repeats without
      # one); starts: the server start of each (each its own start when not given).
      def initialize(windows, starts: nil)
        starts ||= windows.each_index.to_a
        kept = windows.zip(starts).reject { |w, _| w.nil? || w["n"].to_i.zero? }
        @windows = kept.map { |w, _| Window.merge([w]) } # stored keys are strings
        @by_start = kept.group_by(&:last).sort_by { |start, _| start.to_i }.map { |_, list| Window.merge(list.map(&:first)) }
        @merged = Window.merge(@windows)
      end

      def any? = !windows.empty?
      def starts = @by_start.size
      def requests = merged["n"]
      def stamped_share = requests.positive? ? merged["stamped"].fdiv(requests) : nil

      # Total latency in the server at percentile p, and its parts: the mean
      # queue, app and GC time of the requests in that percentile's bucket.
      def at(percentile, window = merged)
        counts = window["total"].transform_values(&:first)
        i = Histogram.percentile_index(counts, percentile) or return nil
        count, queue_us, app_us, gc_us = window["total"][i]
        { "total_ms" => Histogram.value(i) / 1000.0, "queue_ms" => queue_us / count / 1000.0,
          "app_ms" => app_us / count / 1000.0, "gc_ms" => gc_us / count / 1000.0 }
      end

      def queue_ms(percentile, window = merged) = Histogram.percentile(window["queue"], percentile)&./(1000.0)
      def app_ms(percentile, window = merged) = Histogram.percentile(window["app"], percentile)&./(1000.0)
      def gc_ms_per_request = requests.positive? ? merged["gc_us"] / 1000.0 / requests : nil
      def gcs_per_1000_requests = requests.positive? ? merged["gc_count"] * 1000.0 / requests : nil

      # The 95 % interval over server starts of a figure (:queue_ms, :app_ms,
      # or a part of #at: "queue_ms" ...); nil with fewer than two starts or
      # when a start's figure is zero (no log scale for it).
      def ci(figure, percentile, level: Stats::LEVEL)
        all = figure(figure, percentile, merged)
        per_start = @by_start.map { |w| figure(figure, percentile, w) }
        return nil unless all&.positive? && per_start.size >= 2 && per_start.all? { |v| v&.positive? }

        logs = per_start.map { |v| Math.log(v) }
        half = StudentT.critical(level, logs.size - 1) * Stats.stddev(logs) / Math.sqrt(logs.size)
        StartSample::LogInterval.around(Math.log(all), [half, resolution(all)].max, level)
      end

      # Half the width, on the log scale, of the histogram bucket that holds
      # value_ms: an interval is never narrower than what the histogram can
      # resolve (every start's percentile in one bucket gave [153.6, 153.6]).
      def resolution(value_ms)
        low, high = Histogram.bounds(Histogram.index((value_ms * 1000).round))
        low.positive? ? Math.log(high.fdiv(low)) / 2 : 0.0
      end

      def to_h
        return nil unless any?

        { "requests" => requests, "stamped_share" => stamped_share, "processes" => merged["processes"].size,
          "starts" => starts, "p50" => at(50), "p99" => at(99), "queue_p50_ms" => queue_ms(50), "queue_p99_ms" => queue_ms(99),
          "app_p50_ms" => app_ms(50), "app_p99_ms" => app_ms(99), "gc_ms_per_request" => gc_ms_per_request,
          "gcs_per_1000_requests" => gcs_per_1000_requests, "gvl_wait" => GVL,
          "app_p50_ci_ms" => ci(:app_ms, 50)&.to_a, "queue_p50_ci_ms" => ci(:queue_ms, 50)&.to_a,
          "p99_queue_ci_ms" => ci("queue_ms", 99)&.to_a, "p99_app_ci_ms" => ci("app_ms", 99)&.to_a }
      end

      private

      def figure(name, percentile, window)
        name.is_a?(Symbol) ? public_send(name, percentile, window) : at(percentile, window)&.fetch(name)
      end
    end
  end
end
