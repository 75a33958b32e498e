# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    # A Recorder writes closed slots; Window reads those wholly inside a window and merges them exactly.
    class RecorderTest < Minitest::Test
      include TestHelpers

      SLOT = Recorder::SLOT_US

      def slot_start(index) = index * SLOT

      def test_slots_inside_the_window_are_merged_and_those_outside_are_left_out
        recorder = Recorder.new(tmpdir)
        base = (Window.now_us / SLOT) - 10
        recorder.record(150_000, 50_000, 0, 0, slot_start(base) + 10)        # before the window
        recorder.record(150_000, 50_000, 2000, 1, slot_start(base + 1) + 10)
        recorder.record(nil, 40_000, 0, 0, slot_start(base + 2) + 10)
        recorder.record(1, 1, 0, 0, slot_start(base + 3) + 10)               # after it
        recorder.flush(final: true)

        window = Window.read(tmpdir, from_us: slot_start(base + 1) - 5, to_us: slot_start(base + 3))

        assert_equal [2, 1, 2000, 1], window.values_at("n", "stamped", "gc_us", "gc_count")
        assert_equal [Process.pid], window["processes"]
        assert_equal({ Histogram.index(150_000) => 1 }, window["queue"])
        assert_equal 2, window["app"].values.sum
      end

      def test_the_flusher_thread_writes_closed_slots_without_being_asked
        Recorder.new(tmpdir).record(10, 20, 0, 0, Window.now_us)

        wait_until(timeout_s: 5, message: "a probe file with a line") do
          Dir[File.join(tmpdir, "probe-*.jsonl")].any? { |f| !File.empty?(f) }
        end
      end

      def test_windows_of_repeats_merge_by_adding_counts_and_sums
        one = { "n" => 1, "stamped" => 1, "gc_us" => 0, "gc_count" => 0, "processes" => [1],
                "total" => { "90" => [1, 10, 20, 0] }, "queue" => { "5" => 1 }, "app" => { "20" => 1 } }
        merged = Window.merge([one, one.merge("processes" => [2])])

        assert_equal 2, merged["n"]
        assert_equal [1, 2], merged["processes"]
        assert_equal({ 90 => [2, 20, 40, 0] }, merged["total"])
        assert_equal({ 5 => 2 }, merged["queue"])
      end
    end
  end
end
