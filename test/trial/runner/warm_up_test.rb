# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # Before a window: a cell's first window of a start gets the suite's
    # warm-up, later ones only reconnect; an engine that cannot cut the
    # warm-up from its own run gets a separate run of warmup_s, after a
    # drain, whose failure does not fail the cell; the app's data is reset
    # first when reset_each: window. (Until steady: test/trial/steady_warmup_test.rb.)
    class WarmUpTest < Minitest::Test
      Pinning = Struct.new(:client_cpus)
      Drain = Struct.new(:log) do
        def wait = log << [:drain]
      end
      Commands = Struct.new(:log) do
        def reset!(_server, dir, moment) = log << [:reset, File.basename(dir), moment]
      end

      # An engine that warms up in a run of its own (wrk, ab) unless told otherwise.
      class Engine
        attr_reader :log

        def initialize(log, in_run: false, fails: false)
          @log = log
          @in_run = in_run
          @fails = fails
        end

        def warmup_in_run? = @in_run
        def name = "wrk"

        def run(load, dir:, log_name:, **)
          log << [:run, load.duration_s, load.requests, File.basename(dir), log_name]
          raise ServiceError, "connection refused" if @fails

          Result.new(requests: 37)
        end
      end

      def setup
        @log = []
      end

      def warm_up(engine = Engine.new(@log), suite = {})
        WarmUp.new(Suite.load(write_suite({ "warmup_s" => 2 }.merge(suite))), engine: engine, supervisor: nil,
                                                                              pinning: Pinning.new([1]),
                                                                              app_commands: Commands.new(@log))
      end

      def load = Engines::Load.new(target: Target.tcp(1), concurrency: 2, duration_s: 5, warmup_s: 2, requests: 1000)

      def before(warm_up, first:) = warm_up.before_window(load, Drain.new(@log), nil, "c1/reset-r1", first: first, steady: false)

      def test_a_first_window_warms_up_for_the_suites_time_later_ones_only_reconnect
        suite_s = warm_up
        assert_equal 2.0, suite_s.warmup_s(first: true, steady: false)
        assert_equal SHORT_WARMUP_S, suite_s.warmup_s(first: false, steady: false)
        assert_equal SHORT_WARMUP_S, suite_s.warmup_s(first: true, steady: true), "a steady warm-up is its own"
      end

      def test_an_engine_that_cannot_cut_its_warm_up_gets_a_run_of_its_own_for_the_warm_up_time_after_a_drain
        record = before(warm_up, first: true)
        assert_equal([[:drain], [:run, 2, nil, "c1", "warmup.out"]], @log.reject { |e| e.first == :reset })
        assert_equal({ "mode" => "fixed", "engine" => "wrk", "duration_s" => 2.0, "requests" => 37 }, record,
                     "what the warm-up run served, counted, goes with the window")
      end

      def test_later_windows_and_engines_that_warm_up_in_their_run_get_no_separate_warm_up
        before(warm_up, first: false)
        before(warm_up(Engine.new(@log, in_run: true)), first: true)
        assert_empty(@log.reject { |e| e.first == :reset })
      end

      def test_a_failed_warm_up_run_leaves_the_window_to_show_the_fault
        assert_nil before(warm_up(Engine.new(@log, fails: true)), first: true)
        assert_equal 1, @log.count { |e| e.first == :run }, "it was run, and its error kept from the cell"
      end

      def test_the_apps_data_is_reset_before_each_window_when_the_suite_says_window
        before(warm_up(Engine.new(@log), { "reset" => ["true"], "reset_each" => "window" }), first: false)
        assert_equal [[:reset, "reset-r1", "window"]], @log
      end
    end
  end
end
