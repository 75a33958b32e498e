# frozen_string_literal: true

require "json"

module Rackbench
  module Probe
    # The probe's record of one measured window: every process's slots
    # (Recorder) that lie wholly inside [from_us, to_us), added up. Histograms
    # merge exactly; the window's edges fall on slot boundaries (SLOT_US).
    #
    #   Probe::Window.read(dir, from_us: t0, to_us: t1)
    #   # => {"n", "stamped", "gc_us", "gc_count", "processes", "total", "queue", "app", "window_s"} (Recorder's fields)
    #   Probe::Window.merge([h1, h2])   # repeats of a cell, merged the same way
    module Window
      FIELDS = %w[n stamped gc_us gc_count].freeze

      # How long after a window's end its last slot is surely on disk: the
      # flusher's period, twice, for a server that just came out of load.
      SETTLE_S = 3 * Recorder::FLUSH_S

      module_function

      def now_us = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond)

      # The window, once every server process has flushed its slots
      # (Recorder::FLUSH_S after they close); the block, if given, runs just
      # before the read (a server on another host: its records are fetched).
      def read_settled(dir, from_us:, to_us:)
        wait_s = ((to_us - now_us) / 1e6) + SETTLE_S
        sleep(wait_s) if wait_s.positive?
        yield if block_given?
        read(dir, from_us: from_us, to_us: to_us)
      end

      def read(dir, from_us:, to_us:)
        first = (from_us + Recorder::SLOT_US - 1) / Recorder::SLOT_US
        last = to_us / Recorder::SLOT_US # exclusive
        slots = Dir[File.join(dir, "probe-*.jsonl")].flat_map do |path|
          File.foreach(path).filter_map do |line|
            slot = JSON.parse(line)
            slot if slot["slot"] >= first && slot["slot"] < last
          end
        end
        merge(slots.map { |s| s.merge("processes" => [s["pid"]]) }).merge("window_s" => (last - first) * Recorder::SLOT_US / 1e6)
      end

      # Adds up slots or windows: counts, sums and histogram buckets.
      def merge(parts)
        merged = FIELDS.to_h { |f| [f, 0] }.merge("processes" => [], "total" => {}, "queue" => {}, "app" => {})
        parts.each do |part|
          FIELDS.each { |f| merged[f] += part[f].to_i }
          merged["processes"] |= Array(part["processes"])
          %w[queue app].each { |h| part[h].each { |i, n| merged[h][i.to_i] = merged[h].fetch(i.to_i, 0) + n } }
          part["total"].each do |i, sums|
            into = (merged["total"][i.to_i] ||= [0, 0, 0, 0])
            sums.each_with_index { |v, k| into[k] += v }
          end
        end
        merged
      end
    end
  end
end
