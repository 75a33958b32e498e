# frozen_string_literal: true

module Rackbench
  module Reports
    # The members of each traffic mix (Traffic), one row each: share of the
    # requests, throughput, latency from the merged histograms of all repeats,
    # and errors. A pure function of measurements; no section without a mix.
    #
    #   MixBreakdown.new(measurements).sections  # => a Document::Section "mix" per mix cell:
    #   # mix: puma x0:5 c=4 (per endpoint)
    #   # endpoint  weight  share  req/s  p50 ms  p99 ms  check errors  other errors
    class MixBreakdown
      HEADERS = ["endpoint", "weight", "share", "req/s", "p50 ms", "p99 ms", "check errors", "other errors"].freeze

      def initialize(measurements)
        @measurements = measurements.select { |m| m.ok? && m.repeats.any? { |r| r.result.endpoints } }
      end

      def sections = @measurements.map { |m| section(m) }

      private

      def section(measurement)
        members = members_of(measurement)
        total = members.sum { |m| m[:requests] }.clamp(1, nil)
        rows = members.map do |m|
          [m[:name], m[:weight].to_s, format("%.1f %%", 100.0 * m[:requests] / total), format("%.1f", m[:requests_per_s]),
           ms(m[:histogram], 50), ms(m[:histogram], 99), m[:check].to_s, m[:other].to_s]
        end
        Document::Section.new("mix", "mix: #{measurement.label} c=#{measurement.concurrency} (per endpoint)",
                              [Grid.new(HEADERS, rows)])
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
            check: each.sum { |e| e.dig("errors", "status").to_i + e.dig("errors", "check").to_i },
            other: each.sum { |e| e.dig("errors", "other") } }
        end
      end

      def ms(histogram, percentile)
        return "-" if histogram.nil? || histogram.empty?

        format("%.2f", Stats.histogram_percentile(histogram, percentile) / 1000.0)
      end
    end
  end
end
