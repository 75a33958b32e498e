# frozen_string_literal: true

module Rackbench
  module Probe
    # The report's "why" section (explain: true): per endpoint, a row per
    # measured cell with p50 and p99 of the latency inside the server split
    # into queue + app + GC (Breakdown), the queue and app p50 with their
    # 95 % intervals over server starts, GC per request, and the app time against the
    # same server's 1-thread config at the same concurrency (on Ruby 3.1 the
    # GVL wait itself cannot be measured: that ratio shows contention
    # instead). A pure function of measurements; no section without probe records.
    #
    #   Probe::Section.new(measurements).sections  # => [Reports::Document::Section "explain", ...]
    class Section
      HEADERS = ["Server / config", "Conc.", "p50 ms = queue + app + GC", "p99 ms = queue + app + GC",
                 "queue p50 ms [95% CI]", "app p50 ms [95% CI]", "app vs 1 thread", "GC ms/req"].freeze
      NOTE = "Latency inside the server (from the load engine's X-Request-Start stamp to the app's response), " \
             "split at p50 and p99 into queue (accept backlog and the server's own queue), app and the GC during it. " \
             "GVL wait: #{Breakdown::GVL}; \"app vs 1 thread\" compares app time with the same server's 1-thread " \
             "config at the same concurrency instead. Intervals are over server starts (none with one start).".freeze

      def initialize(measurements)
        @cells = measurements.select(&:ok?).to_h { |m| [m, Breakdown.of(m.repeats)] }
                             .select { |_, b| b.any? }
      end

      def sections
        return [] if @cells.empty?

        grids = @cells.group_by { |m, _| m.endpoint }.map do |endpoint, list|
          Reports::Grid.new([endpoint, *HEADERS.drop(1)], list.map { |m, b| row(m, b) })
        end
        [Reports::Document::Section.new("explain", "Why: latency inside the server, split", [*grids,
                                                                                             Reports::Document::Text.plain(NOTE)])]
      end

      private

      def row(measurement, breakdown)
        [measurement.label, measurement.concurrency.to_s, split(breakdown.at(50)), split(breakdown.at(99)),
         with_ci(breakdown.queue_ms(50), breakdown.ci(:queue_ms, 50)), with_ci(breakdown.app_ms(50), breakdown.ci(:app_ms, 50)),
         against_one_thread(measurement, breakdown), ms(breakdown.gc_ms_per_request)]
      end

      def split(part)
        return "-" unless part

        "#{ms(part["total_ms"])} = #{ms(part["queue_ms"])} + #{ms(part["app_ms"])} + #{ms(part["gc_ms"])}"
      end

      def with_ci(value, interval)
        return ms(value) unless interval

        "#{ms(value)} [#{ms(interval.low)}, #{ms(interval.high)}]"
      end

      # App p50 over that of the same server's config with 1 thread (same workers, endpoint and concurrency).
      def against_one_thread(measurement, breakdown)
        config = measurement.config || {}
        return "-" if config["threads"].nil? || config["threads"] == 1

        _, single = @cells.find { |m, _| one_thread_of?(m, measurement, config["workers"]) }
        return "-" unless single&.app_ms(50).to_f.positive?

        format("%.2fx", breakdown.app_ms(50) / single.app_ms(50))
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
