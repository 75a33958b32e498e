# frozen_string_literal: true

module Rackbench
  module Article
    # The figures the seed articles print, in their own shapes, read from one
    # Measurement (Store#measurements) and nothing else: ab's report lines
    # (001, 004), wrk's three columns (002), the sweep's req/s and mean
    # response time (003), the per-second series (000). Every number comes
    # from the Measurement; this class only shapes and rounds.
    # Created by the seed report formats, the charts and Claim.
    #
    #   f = Figures.new(measurement)
    #   f.ok?  f.requests_per_s  f.total_time_s  f.transfer_kb_per_s  f.longest_ms
    #   f.percentiles_ms  # => {50=>12, 66=>14, ..., 100=>80} (ab's "served within" table)
    class Figures
      AB_PERCENTS = [50, 66, 75, 80, 90, 95, 98, 99, 100].freeze

      # Metric name => [reader, which way is better, unit]: Measurement::METRICS.
      METRICS = Measurement::METRICS

      attr_reader :measurement

      def initialize(measurement)
        @measurement = measurement
      end

      # The measurement answers cell["concurrency"] etc. as the stored row did.
      def cell = measurement

      def ok? = measurement.ok?
      def label = measurement.label
      def reason = measurement.reason
      def requests_per_s = round(measurement.requests_per_s)
      def requests_per_s_ci = measurement.requests_per_s_ci
      def good_requests_per_s = round(measurement.good_requests_per_s)
      def requests = ok? ? measurement.requests : nil
      def repeats = measurement.repeats.size
      def total_time_s = ok? ? measurement.repeats.sum { |r| r.result.duration_s.to_f }.round(3) : nil
      def latency_mean_ms = round(measurement.latency_mean_ms)
      def latency_p99_ms = round(measurement.latency_ms(99))
      def longest_ms = round(measurement.latency_ms(100))
      def bytes = ok? ? measurement.repeats.sum { |r| r.result.bytes.to_i } : nil
      def errors = measurement.errors
      def attempted = ok? ? measurement.attempted : nil
      def error_share = measurement.error_share
      def errors_n_tot = measurement.errors_n_tot
      def transfer_kb_per_s = round(measurement.figure("transfer_kb_per_s"))

      # ab's "Time per request (mean, across all concurrent requests)".
      def time_per_request_across_ms
        requests&.positive? && total_time_s ? (total_time_s * 1000 / requests).round(3) : nil
      end

      # The server's CPU as cores kept busy: this machine's stand-in for 004's
      # "server load average" (the run queue of a box that only ran the server).
      def server_load = measurement.cpu_percent && (measurement.cpu_percent / 100.0).round(2)

      def memory_mb = measurement.memory_mb&.round(1)
      def memory_kind = measurement.memory_kind
      def processes = measurement.processes

      # ab's percentile table, in ms, from the merged histogram (or, for
      # engines without one, the median of the repeats' percentiles).
      def percentiles_ms = AB_PERCENTS.to_h { |p| [p, round(measurement.latency_ms(p))] }.compact

      # [{"t_s"=>, "requests_per_s"=>, "p99_ms"=>, "repeat"=>}] from every repeat's series.
      def series
        measurement.series.map do |p|
          p.merge("requests_per_s" => p["requests_per_s"]&.round(1), "p99_ms" => round(p["p99_ms"]))
        end
      end

      def metric(name)
        Measurement.metric(name)
        measurement.figure(name)
      end

      private

      def round(value) = value&.round(2)
    end
  end
end
