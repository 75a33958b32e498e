# frozen_string_literal: true

module Rackbench
  class Measurement
    # The conditions that make a measurement's figures less trustworthy, each
    # as a Warning with advice. Created by Measurement#warnings from what the
    # repeats recorded: the engine's own warnings, the noise probe's readings
    # (Noise), the drain waits, the spread of the repeats and the memory kind.
    module Warnings
      OTHER_CPU_SHARE = 0.10   # other processes' share of the measured CPUs
      STEAL_SHARE = 0.02       # hypervisor steal
      DRAIN_WAIT_S = 1.0
      DRIFT_WINDOWS = 6        # windows a trend is looked for in
      DRIFT_SHARE = 0.20       # the fall over them that matters

      module_function

      def for(measurement)
        return [] unless measurement.ok?

        [*engine(measurement), noise(measurement), neighbours(measurement), steal(measurement), spread(measurement),
         drain(measurement), memory(measurement), drift(measurement), DuetBusy.warning(measurement)].compact
      end

      # Throughput falling window after window (Trend#falling_steadily?): writes that
      # pile up (a table that grows) make later windows slower.
      def drift(measurement)
        rates = measurement.repeats.sort_by { |r| r.started_at.to_s }.map(&:requests_per_s)
        trend = Trend.new(rates)
        return nil unless rates.size >= DRIFT_WINDOWS && trend.falling_steadily?(within: DRIFT_SHARE)

        Warning.new("drift", "throughput fell #{percent(-trend.change_share)} over #{rates.size} windows, one after another " \
                             "(a trend, not noise)", "the app's data may grow with each write: reset it between starts " \
                                                     "(reset: [...], or reset_each: window)")
      end

      # The engine's warnings, each once with in how many repeats it came, and
      # its code where the engine gave one (the native engine's JSON).
      def engine(measurement)
        seen = measurement.repeats.flat_map { |r| coded(r.result).uniq }.tally
        seen.map do |(text, code), count|
          Warning.new("engine", text + share(count, measurement.repeats.size), nil, nil, code)
        end
      end

      # [[sentence, code], ...]: the code from the result's warning_codes
      # (Result#warning_codes), in the order of its warnings; nil for an engine
      # that gave none (wrk, ab, a run stored before the engine gave codes).
      def coded(result)
        codes = Array(result.warning_codes)
        result.warnings.each_with_index.map { |text, i| [text, codes[i]&.fetch("code", nil)] }
      end

      def noise(measurement)
        worst = max_noise(measurement, "other_cpu_share")
        return nil unless worst && worst > OTHER_CPU_SHARE

        Warning.new("noise", "other processes used #{percent(worst)} of the server's and the load generator's CPUs " \
                             "(worst repeat#{busiest(measurement)})",
                    "figures are not comparable with a quiet run; re-run on a quiet machine, or name a process " \
                    "the app depends on in depends_on:", worst)
      end

      # "; busiest: postgres 80 %": the worst repeat's busiest other processes (Noise; their pids are in
      # the repeat's noise record, not in a message that reports print).
      def busiest(measurement)
        worst = measurement.repeats.max_by { |r| r.noise&.dig("other_cpu_share").to_f }
        named = worst&.noise&.dig("other_busiest").to_a.map do |p|
          "#{p["command"]} #{p["cpu_percent"].round} %"
        end
        named.empty? ? "" : "; busiest: #{named.join(", ")}"
      end

      def neighbours(measurement)
        worst = max_noise(measurement, "neighbours_cpu_share")
        return nil unless worst

        Warning.new("neighbours", "a server deployed beside this one was still #{percent(worst)} busy when a window " \
                                  "started", "use --order sequential for servers that keep working when idle (JIT, GC)", worst)
      end

      def steal(measurement)
        worst = max_noise(measurement, "steal_share")
        return nil unless worst && worst > STEAL_SHARE

        Warning.new("steal", "the hypervisor stole #{percent(worst)} of the measured CPUs' time (worst repeat)",
                    "a busy host: re-run later or on dedicated hardware", worst)
      end

      def spread(measurement)
        ci = measurement.requests_per_s_ci
        return nil unless ci && ci.half_width_share > measurement.precision

        noise = measurement.noise_components
        levels = [("between starts #{percent(noise["between_start_cv"])}" if noise["between_start_cv"]),
                  ("between windows of a start #{percent(noise["within_start_cv"])}" if noise["within_start_cv"])].compact
        Warning.new("spread", "throughput interval #{width(ci)} after #{noise["starts"]} server starts " \
                              "(#{noise["windows"]} windows; spread #{levels.join(", ")}), wider than the " \
                              "±#{percent(measurement.precision)} target",
                    "differences smaller than that are noise; raise --max-deployments or run on a quieter machine",
                    ci.half_width_share)
      end

      # "±12 %", or for an interval wider than the figure itself "from 1/9.3 to 9.3 times the figure".
      def width(interval)
        share = interval.half_width_share
        return "±#{percent(share)}" if share <= 1

        factor = format("%.1f", Math.sqrt(interval.high / interval.low))
        "from 1/#{factor} to #{factor} times the figure"
      end

      def drain(measurement)
        waits = measurement.repeats.map { |r| r.drain_s.to_f }
        mean_s = waits.sum / waits.size
        return nil unless mean_s > DRAIN_WAIT_S

        Warning.new("drain", "waited #{mean_s.round(1)} s on average before each window for this server (and those " \
                             "beside it) to finish earlier requests", "a server that queues work keeps it after the load stops",
                    mean_s)
      end

      def memory(measurement)
        return nil if measurement.memory_kind == "PSS" || measurement.memory_bytes.nil?

        Warning.new("memory", "memory is RSS: PSS could not be read for some process",
                    "RSS counts pages shared between forked workers once per worker, so it overstates a cluster")
      end

      def max_noise(measurement, key)
        measurement.repeats.filter_map { |r| r.noise&.dig(key) }.max
      end

      def share(count, total) = total > 1 ? " (in #{count} of #{total} repeats)" : ""

      def percent(share) = "#{(share * 100).round(share < 0.1 ? 1 : 0)} %"
    end
  end
end
