# frozen_string_literal: true

module Rackbench
  class Measurement
    # Latency over every request of the cell's windows, censored ones
    # included (WindowRequests), and how the latency was measured (open or
    # closed loop), for Measurement:
    #
    #   m.latency_all(99)        # => WindowRequests::Percentile over all repeats' windows, nil without them
    #   m.latency_all_text(99)   # => ">= 3200.00" (ms) where p99 falls among unfinished requests, else "812.40"
    #   m.unfinished_share       # => 0.68: the windows' requests without a response
    #   m.latency_model          # => "open" or "closed"; m.latency_model_text says what that means
    #
    # latency_ms (the responses completed in the windows) is left as it is:
    # comparisons and verdicts read it.
    module AllRequests
      LATENCY_MODELS = {
        "closed" => "closed loop: time from send on a free connection; stalls are under-sampled",
        "open" => "open loop: time from each request's scheduled send, so a queue shows; requests without a " \
                  "response count as lower bounds (>=)"
      }.freeze
      PERCENTILES = [50, 90, 99, 99.9, 100].freeze

      # The repeats' window requests merged; nil when some repeat's engine did not follow them.
      def window_requests
        return @window_requests if defined?(@window_requests)

        parts = repeats.map { |r| r.result.window_requests }
        @window_requests = parts.empty? || parts.any?(&:nil?) ? nil : WindowRequests.merge(parts)
      end

      # Percentile p (100: the longest) of every request of the windows; nil without them.
      def latency_all(percentile) = ok? ? window_requests&.percentile(percentile) : nil

      def unfinished_share = window_requests&.unfinished_share

      # The percentile in ms as text, "≥"-marked as ">= " when a lower bound;
      # latency_ms's figure for an engine that did not follow its requests.
      def latency_all_text(percentile, digits: 2)
        all = latency_all(percentile)
        value = all&.value_ms || latency_ms(percentile)
        return nil unless value

        "#{">= " if all&.bound}#{format("%.#{digits}f", value)}"
      end

      # "open" (requests on a schedule) or "closed" (one at a time per
      # connection); nil when nothing was measured.
      def latency_model
        modes = repeats.map { |r| r.result.mode || (Array(r.result.command).include?("--rate") ? "open" : "closed") }
        modes.uniq.size == 1 ? modes.first : modes.first && "closed"
      end

      def latency_model_text = LATENCY_MODELS[latency_model]

      # What to_h adds: the model, and with the windows' requests the percentiles over all of them.
      def all_requests_h
        all = window_requests
        h = { "latency_model" => latency_model }
        return h unless all && ok?

        h.merge("window_requests" => all.to_h.except("histogram", "censored_histogram"),
                "unfinished_share" => all.unfinished_share,
                "latency_all_ms" => PERCENTILES.to_h do |p|
                  pct = all.percentile(p)
                  [p == 100 ? "max" : "p#{format("%g", p).tr(".", "_")}", { "value" => pct.value_ms, "censored" => pct.bound }]
                end)
      end
    end

    include AllRequests
  end
end
