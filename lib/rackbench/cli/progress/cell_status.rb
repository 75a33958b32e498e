# frozen_string_literal: true

module Rackbench
  module CLI
    class Progress
      # How far one cell is: its windows and starts so far, and the half-width
      # of its throughput interval (computed as the finished cell's will be)
      # against the precision target. Made by Progress on the cell's first window.
      class CellStatus
        attr_reader :updated_at

        def initialize(cell, total:, policy:)
          @cell = cell
          @total = total
          @policy = policy
          @repeats = []
          @updated_at = 0
        end

        # A ratio window (Repeat#ratio?) is no window of the cell's own figures.
        def add(repeat)
          @repeats << repeat unless repeat.ratio?
          @updated_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        end

        def finish(measurement) = @measurement = measurement
        def finished? = !@measurement.nil?
        def index = @cell.index
        def windows = @measurement ? @measurement.repeats.size : @repeats.size

        # "cell 3/12 puma x0:16 /hello c=8: start 2/4+, 3 windows, ±4.1 % (target ±5.0 %)" (auto: 4 starts at least)
        def live_text
          "cell #{index}/#{@total} #{name}: start #{starts}/#{@policy.starts}#{"+" if @policy.auto?}, #{windows} " \
            "window#{"s" unless windows == 1}, #{precision_text(live_interval)}"
        end

        # "puma x0:16 /hello c=8: 1234.5 req/s [1201.0, 1262.3] ±2.5 % (target ±3.0 %), p99 3.21 ms, 0 errors,
        # 6 windows over 2 starts", or "... FAILED: why".
        def final_text
          m = @measurement
          return "#{name}: FAILED: #{m.reason.to_s.lines.first&.strip}" unless m.ok?

          ci = m.requests_per_s_ci
          band = ci ? format(" [%.1f, %.1f]", ci.low, ci.high) : ""
          precision = precision_text(m.repeats.size > 1 ? ci : nil, finished: true)
          format("%s: %.1f req/s%s %s, p99 %.2f ms, %d errors, %s over %s", name, m.requests_per_s, band, precision,
                 m.latency_ms(99).to_f, m.errors, count(m.repeats.size, "window"), count(m.deployments, "start"))
        end

        private

        def name = "#{@cell.label} #{@cell.endpoint["name"]} c=#{@cell.concurrency}"
        def starts = @repeats.map(&:deployment).uniq.size

        def count(number, noun) = "#{number} #{noun}#{"s" unless number == 1}"

        # The throughput interval of the windows so far, as a Measurement of
        # them would give it (without building one on every redraw).
        def live_interval
          Measurement.sample_of(@repeats, "requests_per_s").interval if @repeats.size > 1
        end

        # ci: the throughput interval (Stats::Interval), nil without one.
        def precision_text(ci, finished: false)
          target = format("target ±%.1f %%", @policy.precision * 100)
          share = ci&.half_width_share
          return "#{finished ? "no interval" : "no interval yet"} (#{target})" unless share&.finite?

          format("±%.1f %% (%s)", share * 100, target)
        end
      end
    end
  end
end
