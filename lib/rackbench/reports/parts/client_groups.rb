# frozen_string_literal: true

module Rackbench
  module Reports
    # Fast and slow clients apart, for each cell that ran slow clients beside
    # its full-speed ones (a suite's slow_clients: keys, engine: native): a
    # row per group with its throughput, its latency from the merged
    # histograms of all repeats, its errors, and for slow clients the paces
    # held against those asked (the engine's counts: bytes over the seconds
    # their transfers took). A pure function of measurements; no section
    # without slow clients.
    #
    #   ClientGroups.new(measurements).sections  # => a Document::Section "clients" per such cell:
    #   # clients: puma x0:5 c=4 (fast and slow apart)
    #   # clients  connections  req/s  p50 ms  p99 ms  errors  send B/s held (asked)  read B/s held (asked)
    class ClientGroups
      HEADERS = ["clients", "connections", "req/s", "p50 ms", "p99 ms", "errors", "send B/s held (asked)",
                 "read B/s held (asked)"].freeze
      GROUPS = %i[fast_clients slow_clients].freeze

      def initialize(measurements)
        @measurements = measurements.select { |m| m.ok? && m.repeats.any? { |r| r.result.clients } }
      end

      def sections = @measurements.map { |m| section(m) }

      private

      def section(measurement)
        results = measurement.repeats.map(&:result).select(&:clients)
        seconds = results.sum { |r| r.duration_s.to_f }.clamp(1e-9, nil)
        rows = GROUPS.map { |group| row(results.map(&group), seconds) }
        Document::Section.new("clients", "clients: #{measurement.label} c=#{measurement.concurrency} (fast and slow apart)",
                              [Grid.new(HEADERS, rows)])
      end

      # One group summed over the repeats.
      def row(groups, seconds)
        histogram = Stats.merge_histograms(groups.map(&:histogram))
        first = groups.first
        [first.name, first.connections.to_s, format("%.1f", groups.sum(&:requests) / seconds), ms(histogram, 50),
         ms(histogram, 99), groups.sum(&:error_count).to_s,
         pace(groups, "send", first.send_bytes_per_s), pace(groups, "read", first.read_bytes_per_s)]
      end

      # "3988 (4000)": bytes over seconds paced in all repeats, and the pace asked; "-" at full speed.
      def pace(groups, way, asked)
        return "-" unless asked

        seconds = groups.sum { |g| g.data.dig("paced", "#{way}_s").to_f }
        bytes = groups.sum { |g| g.data.dig("paced", "#{way}_bytes").to_f }
        held = seconds.positive? ? format("%.0f", bytes / seconds) : "-"
        "#{held} (#{format("%.0f", asked)})"
      end

      def ms(histogram, percentile)
        return "-" if histogram.empty?

        format("%.2f", Stats.histogram_percentile(histogram, percentile) / 1000.0)
      end
    end
  end
end
