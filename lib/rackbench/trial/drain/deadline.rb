# frozen_string_literal: true

module Rackbench
  class Drain
    # The drain's deadline: timeout_s after its wait began; a server that
    # starts another process meanwhile (still forking workers) moves it to
    # timeout_s after that, never past cap_s after the wait began.
    #
    #   deadline = Deadline.new(30, 120)
    #   deadline.processes(42)    # the server's processes, after each check
    #   deadline.left_s           # => 29.7
    #   deadline.passed?          # => false
    #   deadline.starting_within?(1.0)  # => true: a new process less than a second ago
    #   deadline.within_text      # => "30 s", or "74 s (it started processes meanwhile: 42 -> 101)"
    class Deadline
      # processes: the server's count when it was last seen (calibrated, or at
      # the end of the last wait): more at the first check is a start.
      # grew_at: the clock when it last started one before this wait.
      attr_reader :grew_at

      def initialize(timeout_s, cap_s, processes: nil, grew_at: nil,
                     clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
        @clock = clock
        @first = @most = processes
        @grew_at = grew_at
        @timeout_s = timeout_s
        @started = clock.call
        @cap_at = @started + cap_s
        @at = @started + timeout_s
      end

      # The server's processes at a check; returns count.
      def processes(count)
        return unless count

        @first ||= count
        if @most && count > @most
          @grew_at = @clock.call
          @at = [@grew_at + @timeout_s, @cap_at].min
        end
        @most = [@most, count].compact.max
        count
      end

      # Whether the server started a process in the last within_s seconds:
      # not drained, however idle it reads between two forks.
      def starting_within?(within_s) = !@grew_at.nil? && @clock.call - @grew_at < within_s

      def left_s = [@at - @clock.call, 0.0].max
      def passed? = @clock.call > @at
      def starting? = !@first.nil? && @most > @first

      def within_text
        return "#{@timeout_s} s" unless starting?

        "#{(@clock.call - @started).round} s (it started processes meanwhile: #{@first} -> #{@most})"
      end
    end
  end
end
