# frozen_string_literal: true

module Rackbench
  module Reports
    # The report's "why" section (explain: true): per endpoint, a row per
    # measured cell with p50 and p99 of the latency inside the server split
    # into queue + app + GC (Probe::Breakdown), the queue and app p50 with their
    # 95 % intervals over server starts, GC per request, and the app time against the
    # same server's 1-thread config at the same concurrency (on Ruby 3.1 the
    # GVL wait itself cannot be measured: that ratio shows contention
    # instead). The same figures as numbers in the section's data (json).
    # A pure function of measurements; no section without probe records.
    #
    #   WhySection.new(measurements).sections  # => [Document::Section "explain"], or []
    class WhySection
      HEADERS = ["Server / config", "Conc.", "p50 ms = queue + app + GC", "p99 ms = queue + app + GC",
                 "queue p50 ms [95% CI]", "app p50 ms [95% CI]", "app vs 1 thread", "GC ms/req"].freeze
      NOTE = "Latency inside the server (from the load engine's X-Request-Start stamp to the app's response), " \
             "split at p50 and p99 into queue (accept backlog and the server's own queue), app and the GC during it. " \
             "GVL wait: #{Probe::Breakdown::GVL}; \"app vs 1 thread\" compares app time with the same server's 1-thread " \
             "config at the same concurrency instead. Intervals are over server starts (none with one start).".freeze

      def initialize(measurements)
        @cells = measurements.select(&:ok?).to_h { |m| [m, Probe::Breakdown.of(m.repeats)] }
                             .select { |_, b| b.any? }
      end

      def sections
        return [] if @cells.empty?

        grids = @cells.group_by { |m, _| m.endpoint }.map do |endpoint, list|
          Grid.new([endpoint, *HEADERS.drop(1)], list.map { |m, b| row(m, b) })
        end
        data = @cells.map { |m, b| figures(m, b) }
        [Document::Section.new("explain", "Why: latency inside the server, split", [*grids, Document::Text.plain(NOTE)], data)]
      end

      private

      def row(measurement, breakdown)
        [measurement.label, measurement.concurrency.to_s, split(breakdown.at(50)), split(breakdown.at(99)),
         with_ci(breakdown.queue_ms(50), breakdown.ci(:queue_ms, 50)), with_ci(breakdown.app_ms(50), breakdown.ci(:app_ms, 50)),
         ratio_text(against_one_thread(measurement, breakdown)), ms(breakdown.gc_ms_per_request)]
      end

      # One cell's figures as numbers: each split ({"total_ms", "queue_ms", "app_ms", "gc_ms"}), the p50s with their intervals.
      def figures(measurement, breakdown)
        { "label" => measurement.label, "endpoint" => measurement.endpoint, "concurrency" => measurement.concurrency,
          "p50" => breakdown.at(50), "p99" => breakdown.at(99),
          "queue_p50_ms" => breakdown.queue_ms(50), "queue_p50_ci_ms" => breakdown.ci(:queue_ms, 50)&.to_a&.first(2),
          "app_p50_ms" => breakdown.app_ms(50), "app_p50_ci_ms" => breakdown.ci(:app_ms, 50)&.to_a&.first(2),
          "app_vs_one_thread" => against_one_thread(measurement, breakdown), "gc_ms_per_request" => breakdown.gc_ms_per_request }
      end

      def split(part)
        return "-" unless part

        "#{ms(part["total_ms"])} = #{ms(part["queue_ms"])} + #{ms(part["app_ms"])} + #{ms(part["gc_ms"])}"
      end

      def with_ci(value, interval)
        return ms(value) unless interval

        "#{ms(value)} [#{ms(interval.low)}, #{ms(interval.high)}]"
      end

      def ratio_text(ratio) = ratio ? format("%.2fx", ratio) : "-"

      # App p50 over that of the same server's config with 1 thread (same workers, endpoint and concurrency); nil without one.
      def against_one_thread(measurement, breakdown)
        config = measurement.config || {}
        return nil if config["threads"].nil? || config["threads"] == 1

        _, single = @cells.find { |m, _| one_thread_of?(m, measurement, config["workers"]) }
        return nil unless single&.app_ms(50).to_f.positive?

        breakdown.app_ms(50) / single.app_ms(50)
      end

      def one_thread_of?(other, measurement, workers)
        same_cell = other.endpoint == measurement.endpoint && other.concurrency == measurement.concurrency
        same_cell && other.server == measurement.server && (other.config || {}).values_at("threads", "workers") == [1, workers]
      end

      def ms(value)
        return "-" unless value

        value >= 10 ? format("%.1f", value) : format("%.2f", value)
      end
    end
  end
end
