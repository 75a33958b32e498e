# frozen_string_literal: true

module Rackbench
  module CLI
    # Prints the Runner's events: cell k of n with its figures, and an ETA.
    class Progress
      def initialize(out)
        @out = out
      end

      def run_started(run, plan)
        @plan = plan
        @started = now
        @out.puts "rackbench: run #{run["id"]}, suite #{run["suite"]}: #{plan.size} cells, " \
                  "about #{plan.load_seconds.round}s of load; results in #{run["dir"]}"
      end

      def cell_started(cell)
        @cell_started = now
        @out.print format("[%d/%d] %-24s %-18s c=%-4d ", cell.index, @plan.size,
                          Rackbench::Servers.fetch(cell.server_name).new(cell.server_config).label,
                          cell.endpoint["name"], cell.concurrency)
        @out.flush
      end

      def cell_finished(cell, record)
        figures = if record[:status] == "ok"
                    format("%10.1f req/s  %8.2f ms  %d errors", record[:requests_per_s],
                           record[:latency_mean_us].to_f / 1000, record[:errors])
                  else
                    "FAILED: #{record[:reason].to_s.lines.first&.strip}"
                  end
        @out.puts "#{figures}  (ETA #{eta(cell)})"
      end

      def run_finished(run)
        @out.puts "rackbench: run #{run["id"]} #{run["status"]} in #{(now - @started).round(1)}s\n\n"
      end

      private

      def eta(cell)
        per_cell = (now - @started) / cell.index
        left = (per_cell * (@plan.size - cell.index)).round
        left >= 60 ? "#{left / 60}m#{left % 60}s" : "#{left}s"
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
