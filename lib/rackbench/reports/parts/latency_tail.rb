# frozen_string_literal: true

module Rackbench
  module Reports
    # The far tail of each measured cell: p99, p99.9 and the longest request,
    # with the number of requests behind them (the merged histogram of all
    # repeats). A percentile needs Measurement::TAIL_REQUESTS requests beyond
    # it (p99.9: 10,000), else the row says "n=2500, too few for p99.9"; the
    # longest request is shown whenever one completed. Where a figure falls
    # among requests left without a response (open loop), it is the lower
    # bound over every request of the windows (">= 3200.00"). A pure function
    # of measurements.
    #
    #   LatencyTail.new(measurements).sections  # => [Document::Section "tail"], or [] with nothing measured
    class LatencyTail
      HEADERS = ["Config", "Endpoint", "Conc.", "Requests", "p99 ms", "p99.9 ms", "max ms"].freeze

      def initialize(measurements)
        @measurements = measurements.select(&:ok?)
      end

      def sections
        return [] if @measurements.empty?

        rows = @measurements.map do |m|
          [m.label, m.endpoint.to_s, m.concurrency.to_s, m.latency_count.to_s, figure(m, 99), figure(m, 99.9), figure(m, 100)]
        end
        [Document::Section.new("tail", "Latency tail (all repeats; a percentile needs 10 requests beyond it)",
                               [Grid.new(HEADERS, rows)])]
      end

      private

      def figure(measurement, percentile)
        unless measurement.estimable?(percentile)
          return "n=#{measurement.latency_count}, too few for #{percentile >= 100 ? "a maximum" : "p#{format("%g", percentile)}"}"
        end

        all = measurement.latency_all(percentile)
        return measurement.latency_all_text(percentile) if all&.bound

        measurement.latency_ms(percentile)&.then { |ms| format("%.2f", ms) } || "-"
      end
    end
  end
end
