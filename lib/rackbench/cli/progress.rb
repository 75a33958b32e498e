# frozen_string_literal: true

module Rackbench
  module CLI
    # Prints the Runner's events: a short line per repeat, a line per finished
    # cell with its median and CI, and an ETA from the repeats done so far.
    class Progress
      def initialize(out)
        @out = out
        @repeats = 0
      end

      def run_started(run, plan)
        @plan = plan
        @started = now
        settings = run["settings"] || {}
        @out.puts "rackbench: run #{run["id"]}, suite #{run["suite"]}: #{plan.size} cells, " \
                  "#{repeats_text(settings)}, order #{settings["order"]} (seed #{settings["seed"]}); " \
                  "results in #{run["dir"]}"
      end

      def repeat_finished(cell, repeat)
        @repeats += 1
        @out.puts format("  %-28s %-16s c=%-4d #%-2d d%d %10.1f req/s", cell.label, cell.endpoint["name"],
                         cell.concurrency, repeat.index, repeat.deployment.to_i, repeat.requests_per_s)
      end

      def cell_finished(cell, measurement)
        @done = (@done || 0) + 1
        figures = if measurement.ok?
                    ci = measurement.requests_per_s_ci
                    band = ci ? format(" [%.1f, %.1f]", ci.low, ci.high) : ""
                    format("%.1f req/s%s, p99 %.2f ms, %d errors, %d repeats", measurement.requests_per_s, band,
                           measurement.latency_ms(99).to_f, measurement.errors, measurement.repeats.size)
                  else
                    "FAILED: #{measurement.reason.to_s.lines.first&.strip}"
                  end
        @out.puts "[#{@done}/#{@plan.size}] #{cell.label} #{cell.endpoint["name"]} c=#{cell.concurrency}: #{figures}  " \
                  "(#{elapsed})"
      end

      def run_finished(run)
        @out.puts "rackbench: run #{run["id"]} #{run["status"]} in #{elapsed}\n\n"
      end

      private

      def repeats_text(settings)
        return "#{settings["repeats"]} repeats each" unless settings["repeats"] == "auto"

        "#{settings["min_repeats"]}+ repeats each until ±#{(settings["precision"].to_f * 100).round(1)} % " \
          "(at most #{settings["max_repeats"]} or #{settings["max_cell_s"]} s of load)"
      end

      def elapsed
        s = (now - @started).round
        s >= 60 ? "#{s / 60}m#{s % 60}s" : "#{s}s"
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
