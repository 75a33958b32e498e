# frozen_string_literal: true

module Rackbench
  class Result
    # One group of a load's connections, measured apart by the native engine
    # when slow clients ran beside full-speed ones (Result#fast_clients,
    # Result#slow_clients): its counts, its latency, and for slow clients the
    # paces asked and held (bytes over the seconds their transfers took).
    #
    #   slow = result.slow_clients
    #   slow.requests_per_s            # => 3.2
    #   slow.latency_us["p99"]         # => 2_400_000
    #   slow.held_read_bytes_per_s     # => 3_988.0 (4_000 asked: slow.read_bytes_per_s)
    class ClientGroup
      attr_reader :name, :data

      # name: "fast" or "slow"; data: the engine's Hash for the group.
      def initialize(name, data)
        @name = name
        @data = data || {}
      end

      def connections = data["connections"].to_i
      def requests = data["requests"].to_i
      def requests_per_s = data["requests_per_s"].to_f
      def bytes = data["bytes"].to_i
      def sent_bytes = data["sent_bytes"].to_i
      def errors = data["errors"] || {}
      def error_count = errors.values.sum(&:to_i)
      def latency_us = data["latency_us"] || {}
      def histogram = data["histogram"] || []

      # The paces asked (bytes/s; nil: full speed).
      def send_bytes_per_s = data["send_bytes_per_s"]
      def read_bytes_per_s = data["read_bytes_per_s"]

      # The paces held, as the engine counted them (nil when nothing was paced).
      def held_send_bytes_per_s = data.dig("paced", "send_bytes_per_s")
      def held_read_bytes_per_s = data.dig("paced", "read_bytes_per_s")

      # A latency percentile in ms from the group's histogram (nil when empty).
      def latency_ms(percentile)
        histogram.empty? ? nil : Stats.histogram_percentile(histogram, percentile) / 1000.0
      end
    end
  end
end
