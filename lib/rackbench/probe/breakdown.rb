# frozen_string_literal: true

module Rackbench
  module Probe
    # Where a cell's latency went, from the probe's windows (Probe::Window,
    # stored per repeat as resources["explain"]): total latency inside the
    # server (queue + app) at p50 and p99, each split into queue, app and GC
    # as the means of the requests at that percentile; the queue and app
    # times' own percentiles; GC per request; and between-repeat 95 % CIs.
    #
    #   b = Breakdown.new([window_h, ...])
    #   b.at(99)    # => {"total_ms" => 212.0, "queue_ms" => 160.1, "app_ms" => 51.9, "gc_ms" => 0.0}
    #   b.queue_ms(50), b.app_ms(50), b.gc_ms_per_request, b.ci(:app_ms, 50)
    class Breakdown
      GVL = "not recorded: it needs thread instrumentation (Ruby 3.2+)" \
            "#{"; not available on Ruby #{RUBY_VERSION}" if RUBY_VERSION < "3.2"}".freeze

      attr_reader :windows, :merged

      # windows: one Probe::Window hash per repeat (nil for repeats without one).
      def initialize(windows)
        @windows = windows.compact.reject { |w| w["n"].to_i.zero? }.map { |w| Window.merge([w]) } # stored keys are strings
        @merged = Window.merge(@windows)
      end

      def any? = !windows.empty?
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

      # The between-repeat 95 % CI of a figure (:queue_ms, :app_ms, or a part of #at: "queue_ms" ...).
      def ci(figure, percentile)
        values = windows.filter_map do |w|
          figure.is_a?(Symbol) ? public_send(figure, percentile, w) : at(percentile, w)&.fetch(figure)
        end
        Stats.bootstrap_ci(values)
      end

      def to_h
        return nil unless any?

        { "requests" => requests, "stamped_share" => stamped_share, "processes" => merged["processes"].size,
          "p50" => at(50), "p99" => at(99), "queue_p50_ms" => queue_ms(50), "queue_p99_ms" => queue_ms(99),
          "app_p50_ms" => app_ms(50), "app_p99_ms" => app_ms(99), "gc_ms_per_request" => gc_ms_per_request,
          "gcs_per_1000_requests" => gcs_per_1000_requests, "gvl_wait" => GVL,
          "app_p50_ci_ms" => ci(:app_ms, 50)&.to_a, "queue_p50_ci_ms" => ci(:queue_ms, 50)&.to_a,
          "p99_queue_ci_ms" => ci("queue_ms", 99)&.to_a, "p99_app_ci_ms" => ci("app_ms", 99)&.to_a }
      end
    end
  end
end
