# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Reports
    class ServedBeforeTest < Minitest::Test
      Cell = Struct.new(:repeats)
      Repeat = Struct.new(:resources)

      def cell(*records, warmup: nil)
        Cell.new(records.map { |r| Repeat.new(r ? { "served_before" => r, "warmup" => warmup }.compact : {}) })
      end

      def record(drain, warmup_s: 1.0, estimate: 2100)
        { "readiness" => 1, "checks" => 2, "drain_probes" => drain, "warmup_s" => warmup_s,
          "warmup_requests_estimate" => estimate }
      end

      def test_the_first_windows_of_every_start_are_summed_up_as_ranges
        line = ServedBefore.line([cell(record(2, estimate: 1150), nil), cell(record(5, estimate: 2300))])
        assert_equal "Before a start's first window: readiness 1, checks 2, drain probes 2-5 (rackbench's requests); " \
                     "1 s warm-up, about 1,150-2,300 requests", line
      end

      def test_the_warm_up_s_responses_counted_by_the_engine_are_said_without_about
        counted = ->(n) { record(2).except("warmup_requests_estimate").merge("warmup_requests" => n) }
        assert_equal "Before a start's first window: readiness 1, checks 2, drain probes 2 (rackbench's requests); " \
                     "1 s warm-up, 1,234-1,500 requests", ServedBefore.line([cell(counted[1500]), cell(counted[1234])])
        mixed = ServedBefore.line([cell(counted[1234]), cell(record(2, estimate: 900))])
        assert_match(/1 s warm-up, about 900-1,234 requests\z/, mixed,
                     "one start stored before the count, estimated: about")
      end

      def test_a_warm_up_run_of_its_own_gives_its_count
        run = { "mode" => "fixed", "engine" => "wrk", "duration_s" => 1.0, "requests" => 1777 }
        assert_match(/; 1 s warm-up, 1,777 requests\z/, ServedBefore.line([cell(record(2, estimate: 2100), warmup: run)]))
      end

      def test_without_warm_up_only_rackbench_s_requests_are_said
        assert_equal "Before a start's first window: readiness 1, checks 2, drain probes 3 (rackbench's requests)",
                     ServedBefore.line([cell(record(3, warmup_s: 0.0, estimate: 0))])
      end

      def test_a_run_stored_before_it_was_recorded_has_no_line
        assert_nil ServedBefore.line([cell(nil, nil)])
      end
    end
  end
end
