# frozen_string_literal: true

module Rackbench
  # Where the windows of a duet wait for each other, so their loads begin at
  # the same instant: each thread does its own preparation (the samplers'
  # first reading of /proc takes a while on a busy machine, under Ruby's
  # lock), then #wait; the last to arrive releases all. Once released it
  # stays open (a window measured again does not wait), and a partner that
  # never arrives holds the others at most timeout_s.
  class StartLine
    TIMEOUT_S = 10

    def initialize(runners, timeout_s: TIMEOUT_S)
      @runners = runners
      @timeout_s = timeout_s
      @arrived = 0
      @mutex = Mutex.new
      @released = ConditionVariable.new
    end

    def wait
      @mutex.synchronize do
        @arrived += 1
        deadline = now + @timeout_s
        @released.broadcast if @arrived >= @runners
        @released.wait(@mutex, deadline - now) while @arrived < @runners && now < deadline
      end
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
