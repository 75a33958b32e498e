# frozen_string_literal: true

module Rackbench
  module Reports
    # Each load host's share of every cell measured from several hosts
    # (load_hosts:), repeat by repeat: its requests and their share of the
    # merged cell's, its own p99, the busiest load thread's share of a core
    # (near 100 %: that host's client CPU was the limit), the whole host's
    # CPU busy share over the window, and its clock offset.
    #
    #   rackbench report --format hosts
    class Hosts < Base
      HEADERS = ["rep", "host", "requests", "share", "p99 ms", "client CPU", "host CPU", "offset ms"].freeze

      def render
        blocks = cells.select(&:ok?).filter_map { |m| block(m) }
        return "No cell of run #{run["id"]} was loaded from several hosts (load_hosts:).\n" if blocks.empty?

        "#{heading.join("\n")}\n#{blocks.join}"
      end

      private

      def block(measurement)
        rows = measurement.repeats.flat_map do |repeat|
          (repeat.result.hosts || []).map { |h| row(repeat.index, h, repeat.result.requests.to_i) }
        end
        return nil if rows.empty?

        "\n#{measurement.label} at #{measurement.concurrency}, #{measurement.endpoint}\n#{Grid.new(HEADERS, rows, left: 2).text}"
      end

      def row(index, host, merged_requests)
        p99_us = Stats.histogram_percentile(host["histogram"] || [], 99)
        cpu = host.dig("client_cpu", "max_thread_share")
        busy = host["host_cpu_busy_share"]
        share = merged_requests.positive? ? host["requests"].to_i * 100.0 / merged_requests : 0
        [index, host["host"], host["requests"].to_i, format("%.1f%%", share), p99_us ? format("%.2f", p99_us / 1000.0) : "-",
         cpu ? "#{(cpu * 100).round} %" : "-", busy ? "#{(busy * 100).round} %" : "-",
         host["clock_offset_s"] ? format("%.2f", host["clock_offset_s"] * 1000) : "-"]
      end
    end

    register("hosts", Hosts)
  end
end
