# frozen_string_literal: true

module Rackbench
  # Where the windows of a duet wait for each other, so their loads begin at
  # the same instant: each thread does its own preparation (the samplers'
  # first reading of /proc takes a while on a busy machine, under Ruby's
  # lock), then #wait; the last to arrive releases all, with one instant
  # LEAD_S ahead that each load begins at (Load#start_at: the engine sleeps
  # until then, so the threads' own delays in starting their engines, a few
  # hundred ms apart under Ruby's lock on a busy machine, do not shift one
  # load against the other; the engine says how late it began, and one that
  # began late cuts its warm-up rather than shift its counted window, so the
  # partners count the same span of time (else a late partner would count its
  # last moments alone, with the whole CPU)). Once
  # released it stays open (a window measured again does not wait, and
  # begins at once), and a partner that never arrives holds the others at
  # most timeout_s.
  class StartLine
    TIMEOUT_S = 10
    LEAD_S = 0.3

    def initialize(runners, timeout_s: TIMEOUT_S)
      @runners = runners
      @timeout_s = timeout_s
      @arrived = 0
      @mutex = Mutex.new
      @released = ConditionVariable.new
    end

    # Returns the Unix time (s) the load begins at; nil once the line was passed.
    def wait
      @mutex.synchronize do
        @arrived += 1
        return nil if @arrived > @runners

        deadline = now + @timeout_s
        @released.wait(@mutex, deadline - now) while @arrived < @runners && now < deadline
        @instant ||= Time.now.to_f + LEAD_S
        @released.broadcast
        @instant
      end
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
