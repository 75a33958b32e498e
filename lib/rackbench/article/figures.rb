# frozen_string_literal: true

module Rackbench
  module Article
    # The figures the seed articles print, derived from one stored cell (a row
    # of Store#cells) and nothing else: ab's report lines (001, 004), wrk's
    # three columns (002), the sweep's req/s and mean response time (003), the
    # per-second series (000). Created by the seed report formats and by Claim.
    #
    #   f = Figures.new(cell)
    #   f.ok?  f.requests_per_s  f.total_time_s  f.transfer_kb_per_s  f.longest_ms
    #   f.percentiles_ms  # => {50=>12, 66=>14, ..., 100=>80} (ab's "served within" table)
    class Figures
      AB_PERCENTS = [50, 66, 75, 80, 90, 95, 98, 99, 100].freeze

      # Metric name => [reader, which way is better, unit] for claims and bar charts.
      METRICS = {
        "requests_per_s" => [:requests_per_s, :higher, "req/s"],
        "good_requests_per_s" => [:good_requests_per_s, :higher, "good req/s (errors left out)"],
        "latency_mean_ms" => [:latency_mean_ms, :lower, "ms mean"],
        "longest_ms" => [:longest_ms, :lower, "ms longest request"],
        "error_share" => [:error_share, :lower, "of requests failed"],
        "server_load" => [:server_load, :lower, "server cores busy"],
        "memory_mb" => [:memory_mb, :lower, "MB"],
        "total_time_s" => [:total_time_s, :lower, "s total"],
        "transfer_kb_per_s" => [:transfer_kb_per_s, :higher, "KB/s"]
      }.freeze

      attr_reader :cell

      def initialize(cell)
        @cell = cell
        @result = cell["result"] || {}
        @resources = cell["resources"] || {}
      end

      def ok? = cell["status"] == "ok"
      def label = cell["label"]
      def reason = cell["reason"]
      def requests_per_s = cell["requests_per_s"]
      def requests = @result["requests"]
      def total_time_s = @result["duration_s"]
      def latency_mean_ms = ms(cell["latency_mean_us"])
      def latency_p99_ms = ms(cell["latency_p99_us"])
      def longest_ms = ms(latency["max"])
      def bytes = @result["bytes"]

      # Requests that got no good answer, over all attempted: 002's "n/tot".
      def errors = cell["errors"]

      def attempted
        return nil unless requests

        requests + (@result["errors"] || {}).except("status", "check").values.sum
      end

      def error_share
        attempted&.positive? ? errors.to_f / attempted : nil
      end

      def errors_n_tot = ok? ? "#{errors}/#{attempted}" : "-"

      # The rate of good answers only. wrk's and ab's req/s count a rejection
      # as a response: Passenger's 503s at a full queue (002) made it "fastest".
      def good_requests_per_s
        return nil unless requests_per_s && requests&.positive? && errors

        (requests_per_s * (attempted - errors) / requests).round(2)
      end

      def transfer_kb_per_s
        return nil unless bytes && total_time_s&.positive?

        (bytes / 1024.0 / total_time_s).round(2)
      end

      # ab's "Time per request (mean, across all concurrent requests)".
      def time_per_request_across_ms
        requests&.positive? && total_time_s ? (total_time_s * 1000 / requests).round(3) : nil
      end

      # The server's CPU as cores kept busy: this machine's stand-in for 004's
      # "server load average" (the run queue of a box that only ran the server).
      def server_load
        @resources["cpu_percent"] && (@resources["cpu_percent"] / 100.0).round(2)
      end

      def memory_mb
        bytes = @resources["pss_max_bytes"] || @resources["rss_max_bytes"]
        bytes && (bytes / 1_048_576.0).round(1)
      end

      def processes = @resources["processes_max"]

      # ab's percentile table, in ms: from the native engine's histogram when
      # stored, else from the percentiles the engine reported (ab, wrk).
      def percentiles_ms
        histogram = @result["histogram"]
        return from_histogram(histogram) if histogram.is_a?(Array) && !histogram.empty?

        AB_PERCENTS.to_h { |p| [p, ms(p == 100 ? latency["max"] : latency["p#{p}"])] }.compact
      end

      # [{"t_s"=>1.0, "requests_per_s"=>..., "p99_ms"=>...}] from the native engine's series.
      def series
        rows = @result["series"] || []
        rows.each_with_index.map do |point, i|
          interval_s = i.zero? ? point["t_s"] : point["t_s"] - rows[i - 1]["t_s"]
          { "t_s" => point["t_s"], "p99_ms" => ms(point["p99_us"]),
            "requests_per_s" => interval_s.positive? ? (point["requests"] / interval_s).round(1) : nil }
        end
      end

      def metric(name)
        reader, = METRICS.fetch(name) { raise ConfigError, "unknown metric #{name.inspect}; known: #{METRICS.keys.join(", ")}" }
        public_send(reader)
      end

      private

      def latency = @result["latency_us"] || {}

      def ms(us) = us && (us / 1000.0).round(2)

      def from_histogram(buckets)
        total = buckets.sum(&:last)
        AB_PERCENTS.to_h do |p|
          wanted = (total * p / 100.0).ceil
          seen = 0
          value = buckets.find { |_, count| (seen += count) >= wanted }&.first
          [p, ms(value)]
        end
      end
    end
  end
end
