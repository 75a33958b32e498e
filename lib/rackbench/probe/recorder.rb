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
    #   recorder.record(150_000, 50_000, 0, 0, now_us)   # queue, app and GC us, GC count, when it ended
    #
    # A line: {"slot" => N (SLOT_US since the epoch), "pid", "n", "stamped" (requests with a
    # queue time), "gc_us", "gc_count", "total" => {bucket => [count, queue_us, app_us, gc_us sums]},
    # "queue" => {bucket => count}, "app" => {bucket => count}}.
    class Recorder
      SLOT_US = 100_000
      FLUSH_S = 0.1

      STARTING = Mutex.new

      def initialize(dir)
        @dir = dir
        @flusher = nil
      end

      # One request: its queue time (nil without a stamp), app time and the
      # GC during it, finished at at_us (wall clock, microseconds).
      def record(queue_us, app_us, gc_us, gc_count, at_us)
        start_in_this_process unless @flusher&.alive? # threads do not survive a fork: a new worker starts its own
        slot = at_us / SLOT_US
        @mutex.synchronize { add(@slots[slot] ||= [0, 0, 0, 0, {}, {}, {}], queue_us, app_us, gc_us, gc_count) }
      end

      # Writes every closed slot (all of them when final).
      def flush(final: false)
        now = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond) / SLOT_US
        closed = @mutex.synchronize do
          done = @slots.keys.select { |s| final || s < now }
          done.map { |s| line(s, @slots.delete(s)) }
        end
        return if closed.empty?

        File.open(@path, "a") { |f| f.write(closed.join) }
      end

      private

      def start_in_this_process
        STARTING.synchronize do
          return if @flusher&.alive?

          @pid = Process.pid
          @mutex = Mutex.new
          @slots = {}
          @path = File.join(@dir, "probe-#{@pid}.jsonl")
          @flusher = Thread.new do
            loop do
              sleep FLUSH_S
              flush
            end
          end
          pid = @pid
          at_exit do
            flush(final: true) if pid == Process.pid
          rescue SystemCallError
            nil # its folder is gone: nobody reads it any more
          end
        end
      end

      def line(slot, data)
        n, stamped, gc_us, gc_count, total, queue, app = data
        "#{JSON.generate({ "slot" => slot, "pid" => @pid, "n" => n, "stamped" => stamped, "gc_us" => gc_us,
                           "gc_count" => gc_count, "total" => total, "queue" => queue, "app" => app })}\n"
      end

      # A slot in memory: [n, stamped, gc_us, gc_count, total, queue, app], as the line says.
      def add(slot, queue_us, app_us, gc_us, gc_count)
        slot[0] += 1
        slot[2] += gc_us
        slot[3] += gc_count
        app = slot[6]
        i = Histogram.index(app_us)
        app[i] = (app[i] || 0) + 1
        if queue_us
          slot[1] += 1
          queue = slot[5]
          i = Histogram.index(queue_us)
          queue[i] = (queue[i] || 0) + 1
        else
          queue_us = 0
        end
        sums = (slot[4][Histogram.index(queue_us + app_us)] ||= [0, 0, 0, 0])
        sums[0] += 1
        sums[1] += queue_us
        sums[2] += app_us
        sums[3] += gc_us
      end
    end
  end
end
