# frozen_string_literal: true

module Rackbench
  module Reports
    # The members of each traffic mix (Traffic), one line each: share of the
    # requests, throughput, latency from the merged histograms of all repeats,
    # and errors. A pure function of measurements; empty without a mix.
    #
    #   mix: puma x0:5 c=4
    #     endpoint  weight  share  req/s  p50 ms  p99 ms  check errors  other errors
    class MixBreakdown
      def initialize(measurements)
        @measurements = measurements.select { |m| m.ok? && m.repeats.any? { |r| r.result.endpoints } }
      end

      def text
        @measurements.map { |m| block(m) }.join
      end

      private

      def block(measurement)
        members = members_of(measurement)
        total = members.sum { |m| m[:requests] }.clamp(1, nil)
        rows = members.map do |m|
          [m[:name], m[:weight].to_s, format("%.1f %%", 100.0 * m[:requests] / total), format("%.1f", m[:requests_per_s]),
           ms(m[:histogram], 50), ms(m[:histogram], 99), m[:check].to_s, m[:other].to_s]
        end
        "\nmix: #{measurement.label} c=#{measurement.concurrency} (per endpoint)\n" +
          grid(["endpoint", "weight", "share", "req/s", "p50 ms", "p99 ms", "check errors", "other errors"], rows)
      end

      # Each member summed over the repeats; req/s over the measured seconds.
      def members_of(measurement)
        results = measurement.repeats.map(&:result).select(&:endpoints)
        seconds = results.sum { |r| r.duration_s.to_f }.clamp(1e-9, nil)
        results.first.endpoints.each_index.map do |i|
          each = results.map { |r| r.endpoints[i] }
          requests = each.sum { |e| e["requests"] }
          { name: each.first["name"], weight: each.first["weight"], requests: requests, requests_per_s: requests / seconds,
            histogram: Stats.merge_histograms(each.map { |e| e["histogram"] }),
            check: each.sum { |e| e.dig("errors", "check") }, other: each.sum { |e| e.dig("errors", "other") } }
        end
      end

      def ms(histogram, percentile)
        return "-" if histogram.nil? || histogram.empty?

        format("%.2f", Stats.histogram_percentile(histogram, percentile) / 1000.0)
      end

      def grid(headers, rows)
        widths = headers.each_index.map { |i| ([headers[i]] + rows.map { |r| r[i] }).map(&:length).max }
        line = lambda { |cells|
          "  #{cells.each_with_index.map do |c, i|
            i.zero? ? c.ljust(widths[i]) : c.rjust(widths[i])
          end.join("  ")}\n"
        }
        line.call(headers) + rows.map(&line).join
      end
    end
  end
end
