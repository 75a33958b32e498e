# frozen_string_literal: true

require "io/console"
require_relative "progress/cell_status"

module Rackbench
  module CLI
    # The Runner's listener for `rackbench run` and `rackbench ab`: how far the
    # run is and how close each cell is to its precision target.
    #
    # On a terminal (out.tty?), one live status line per cell being measured,
    # rewritten in place after each window:
    #
    #   cell 3/12 puma x0:16 /hello c=8: start 2/2, 5 windows, ±4.1 % (target ±3.0 %)
    #     2/12 cells done, 25 windows in 1m10s, ETA 2m10s
    #
    # the last line the run's pace and what it leaves; and a final line per
    # cell once it is done, which stays. Elsewhere (a log, CI) the final
    # lines, one per cell, each with the time the run has left, and the pace
    # line once LOG_PACE_S passed without one: a run that measures every cell
    # once a start (order sequential) finishes its cells only at its last
    # start, and its log would say nothing until then.
    #
    #   rackbench: 29 windows in 6m02s: 0/29 cells done, about 12m04s left
    class Progress
      # The most live lines shown at once (an interleaved level measures every
      # config of every endpoint in turn); the rest are counted.
      MAX_LIVE_LINES = 12
      LOG_PACE_S = 60

      def initialize(out, live: out.respond_to?(:tty?) && out.tty?, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
        @out = out
        @live = live
        @clock = clock
        @statuses = {}
        @shown = 0
        @windows = 0
      end

      def run_started(run, plan)
        @plan = plan
        @started = @said = now
        @settings = run["settings"] || {}
        @policy = RepeatPolicy.new(@settings)
        say "rackbench: run #{run["id"]}, suite #{run["suite"]}: #{plan.size} cells, " \
            "#{@policy}, order #{@settings["order"]} (seed #{@settings["seed"]}); results in #{run["dir"]}"
      end

      # --resume: what the run had measured before it stopped. Its windows
      # count toward each cell's, not toward the pace (they took no time here).
      def cell_restored(cell, repeats, done)
        repeats.each { |r| status_of(cell).add(r) }
        return unless done

        (@restored_done ||= []) << cell.index
        @done = @done.to_i + 1
      end

      def repeat_finished(cell, repeat)
        @windows += 1
        status_of(cell).add(repeat)
        @live ? redraw : log_pace
      end

      def cell_finished(cell, measurement)
        status = status_of(cell)
        status.finish(measurement)
        @done = (@done || 0) + 1
        say "[#{@done}/#{@plan.size}] #{status.final_text} (#{duration(now - @started)}#{left_text})"
        @said = now
      end

      def run_finished(run)
        say "rackbench: run #{run["id"]} #{run["status"]} in #{duration(now - @started)}\n\n"
      end

      private

      def status_of(cell)
        @statuses[cell.index] ||= CellStatus.new(cell, total: @plan.size, policy: @policy)
      end

      # Lines that stay: above the live ones, which are drawn again below them.
      def say(text)
        clear
        @out.puts text
        redraw if @live
      end

      def redraw
        clear
        lines = live_lines
        lines.each { |line| @out.print "#{fit(line)}\n" }
        @out.flush
        @shown = lines.size
      end

      # Moves the cursor back up over the live lines and clears to the end of the screen.
      def clear
        return unless @live && @shown.positive?

        @out.print "\e[#{@shown}A\r\e[J"
        @shown = 0
      end

      def live_lines
        return [] if @windows.zero?

        going = @statuses.values.reject(&:finished?).sort_by(&:updated_at)
        shown = going.last(MAX_LIVE_LINES).sort_by(&:index)
        lines = shown.map(&:live_text)
        lines << "  ... and #{going.size - shown.size} more cells under way" if going.size > shown.size
        lines << pace_text
      end

      # "  4/12 cells done, 25 windows in 1m10s, ETA 2m10s"
      def pace_text
        "  #{@done.to_i}/#{@plan.size} cells done, #{@windows} window#{"s" unless @windows == 1} in " \
          "#{duration(now - @started)}, ETA #{duration(eta_s)}"
      end

      # In a log, the pace once LOG_PACE_S passed since its last line.
      def log_pace
        return if now - @said < LOG_PACE_S

        @said = now
        say "rackbench: #{@windows} window#{"s" unless @windows == 1} in #{duration(now - @started)}: " \
            "#{@done.to_i}/#{@plan.size} cells done, about #{duration(eta_s)} left"
      end

      # ", about 12m30s left" in a log (a terminal's pace line says it) while
      # cells remain, once a window was measured.
      def left_text
        return "" if @live || @done >= @plan.size || @windows.zero?

        ", about #{duration(eta_s)} left"
      end

      # A line as wide as the terminal at most, so none wraps and the cursor
      # moves up over exactly the lines drawn.
      def fit(line)
        width = terminal_width
        line.size < width ? line : "#{line[0, width - 4]}..."
      end

      # Columns of the terminal; 120 where it does not say (a pty without a size).
      def terminal_width
        columns = @out.respond_to?(:winsize) ? @out.winsize[1] : 0
        columns.to_i > 20 ? columns : 120
      rescue SystemCallError
        120
      end

      # The run's own pace (wall seconds per window so far) times the windows
      # still expected: each cell at least the policy's minimum, and as many
      # as the finished cells took on average.
      def eta_s
        finished = @statuses.values.select(&:finished?)
        expected = [@policy.minimum_windows, finished.empty? ? 0 : finished.sum(&:windows).fdiv(finished.size)].max
        left = @plan.cells.sum do |cell|
          status = @statuses[cell.index]
          status&.finished? || @restored_done.to_a.include?(cell.index) ? 0 : [expected - status&.windows.to_i, 1].max
        end
        left * (now - @started) / @windows
      end

      def duration(seconds)
        s = seconds.round
        s >= 60 ? "#{s / 60}m#{format("%02d", s % 60)}s" : "#{s}s"
      end

      def now = @clock.call
    end
  end
end
