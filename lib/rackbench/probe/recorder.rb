# frozen_string_literal: true

require "json"
require_relative "histogram"

module Rackbench
  module Probe
    # The probe's per-process record, in slots of SLOT_US of wall-clock time
    # (by when each request left the app). A thread of the server process
    # appends each closed slot to DIR/probe-PID.jsonl, one JSON line, within
    # FLUSH_S of its end; rackbench merges the slots of a window (Reader).
    # A forked worker starts its own record and file.
    #
    #   recorder = Recorder.new(dir)
    #   recorder.record(queue_us: 150_000, app_us: 50_000, gc_us: 0, gc_count: 0)
    #
    # A line: {"slot" => N (SLOT_US since the epoch), "pid", "n", "stamped" (requests with a
    # queue time), "gc_us", "gc_count", "total" => {bucket => [count, queue_us, app_us, gc_us sums]},
    # "queue" => {bucket => count}, "app" => {bucket => count}}.
    class Recorder
      SLOT_US = 100_000
      FLUSH_S = 0.1

      def initialize(dir)
        @dir = dir
        @pid = nil
      end

      def record(queue_us:, app_us:, gc_us:, gc_count:)
        start_in_this_process unless @pid == Process.pid
        slot = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond) / SLOT_US
        @mutex.synchronize { add(@slots[slot] ||= empty_slot(slot), queue_us, app_us, gc_us, gc_count) }
      end

      # Writes every closed slot (all of them when final).
      def flush(final: false)
        now = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond) / SLOT_US
        closed = @mutex.synchronize do
          done = @slots.keys.select { |s| final || s < now }
          done.map { |s| @slots.delete(s) }
        end
        return if closed.empty?

        File.open(@path, "a") { |f| f.write(closed.map { |s| "#{JSON.generate(s)}\n" }.join) }
      end

      private

      def start_in_this_process
        @pid = Process.pid
        @mutex = Mutex.new
        @slots = {}
        @path = File.join(@dir, "probe-#{@pid}.jsonl")
        Thread.new do
          loop do
            sleep FLUSH_S
            flush
          end
        end
        at_exit { flush(final: true) if @pid == Process.pid }
      end

      def empty_slot(slot)
        { "slot" => slot, "pid" => @pid, "n" => 0, "stamped" => 0, "gc_us" => 0, "gc_count" => 0,
          "total" => {}, "queue" => {}, "app" => {} }
      end

      def add(slot, queue_us, app_us, gc_us, gc_count)
        slot["n"] += 1
        slot["gc_us"] += gc_us
        slot["gc_count"] += gc_count
        app = Histogram.index(app_us)
        slot["app"][app] = slot["app"].fetch(app, 0) + 1
        if queue_us
          slot["stamped"] += 1
          queue = Histogram.index(queue_us)
          slot["queue"][queue] = slot["queue"].fetch(queue, 0) + 1
        end
        sums = (slot["total"][Histogram.index(queue_us.to_i + app_us)] ||= [0, 0, 0, 0])
        sums[0] += 1
        sums[1] += queue_us.to_i
        sums[2] += app_us
        sums[3] += gc_us
      end
    end
  end
end
