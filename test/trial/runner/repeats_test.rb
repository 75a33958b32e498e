# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # One round's windows without servers: each cell's deployment checked,
    # drained and warmed up before its load, the window kept as the cell's
    # next repeat with the load time RepeatPolicy counts, and a fault
    # failing only its cell (and retiring a deployment that died).
    # (Repeats on a real puma: test/trial/runner_test.rb; duets: test/integration/duet_test.rb.)
    class RepeatsTest < Minitest::Test
      Drain = Struct.new(:log) do
        def wait = log << :drained
      end

      # A Trial's face: checks, drains and measures as told, and says what was asked.
      class FakeTrial
        attr_reader :log, :server, :dir
        attr_accessor :alive, :verify_error

        def initialize(dir)
          @dir = dir
          @log = []
          @alive = true
          @server = Struct.new(:config).new({ "server" => "puma" })
        end

        def rule = AnswerRule.new
        def target(path) = Target.tcp(9292, path)
        def alive? = alive
        def pids = [1]

        def verify!(endpoint, timeout_s:)
          log << [:verify, endpoint["name"], timeout_s]
          raise verify_error if verify_error
        end

        def drain(path:, timeout_s:)
          log << [:drain, path, timeout_s]
          Drain.new(log)
        end

        def measure(load, dir:, **options)
          log << [:measure, load.warmup_s, File.basename(dir), options[:log_name]]
          result = Result.new(engine: "wrk", requests: 500, duration_s: load.duration_s, requests_per_s: 500.0)
          Measurement::Repeat.new(result: result, resources: { "memory" => {} }, noise: {})
        end
      end

      # Deployments, WarmUp and Recorder, recording what Repeats asks.
      class Fakes
        attr_reader :kept, :failed, :retired, :warmed

        def initialize(trial)
          @live = Live.new(key: [1, {}], trial: trial, epoch: 1, number: 2, warmed: Set.new)
          @kept = []
          @failed = []
          @retired = []
          @warmed = []
        end

        def live_for(_cell, _epoch) = @live
        def neighbour_pids(_live) = []
        def retire(keys) = retired.concat(keys)

        def steady?(_trial) = false
        def warmup_s(first:, steady:) = first && !steady ? 1.0 : 0.25
        def before_window(*) = nil
        def warmed!(live, cell, _repeat, _record) = (live.warmed << cell.index) && (warmed << cell.index)

        def done?(cell) = failed.any? { |c, *| c == cell.index }
        def repeats(cell) = kept.select { |c, *| c == cell.index }
        def keep(cell, repeat, deployment:, round:, load_s:) = kept << [cell.index, repeat, deployment, round, load_s]
        def fail(cell, reason, log_tail: nil, trial: nil) = failed << [cell.index, reason, log_tail, trial]
      end

      def setup
        @suite = Suite.load(write_suite("duration_s" => 2, "warmup_s" => 1, "timeout_s" => 3, "drain_timeout_s" => 4,
                                        "endpoints" => ["/hello", "/sleep/1"]))
        @trial = FakeTrial.new(tmpdir)
        @fakes = Fakes.new(@trial)
        @cells = Plan.new(@suite).cells
      end

      def repeats(order: "interleaved")
        Repeats.new(@suite, engine_name: "wrk", schedule: Schedule.new(order: order, seed: 1), recorder: @fakes,
                            deployments: @fakes, warm_up: @fakes, dependencies: [], duet: false)
      end

      def test_a_window_is_verified_and_drained_then_loaded_and_kept_with_its_start_and_round
        repeats.measure([@cells[0]], 5, 1)
        assert_equal [[:verify, "/hello", 3], [:drain, "/hello", 4], [:measure, 1.0, "c1", "wrk-r1.out"]], @trial.log
        cell, _repeat, deployment, round, load_s = @fakes.kept.fetch(0)
        assert_equal [1, 2, 5], [cell, deployment, round]
        assert_in_delta 2 + SHORT_WARMUP_S, load_s, 1e-9, "the window and a short re-warm-up, as RepeatPolicy counts it"
        assert_equal [1], @fakes.warmed
      end

      def test_a_cells_later_windows_on_a_warm_deployment_only_reconnect
        measure = repeats
        2.times { measure.measure([@cells[0]], 1, 1) }
        assert_equal([1.0, 0.25], @trial.log.select { |e| e.first == :measure }.map { |e| e[1] })
        assert_equal "wrk-r2.out", @trial.log.last.last, "the cell's second window"
      end

      def test_the_deployment_counts_the_measured_requests_it_has_served_in_each_repeats_memory
        repeats.measure(@cells, 1, 1)
        assert_equal([500, 1000], @fakes.kept.map { |_, repeat, *| repeat.resources["memory"]["requests"] })
      end

      def test_a_sequential_window_has_no_round
        repeats(order: "sequential").measure([@cells[0]], 3, 1)
        assert_nil @fakes.kept.fetch(0)[3]
      end

      def test_a_wrong_answer_fails_only_its_cell_and_a_deployment_that_died_is_retired
        @trial.verify_error = ServiceError.new("verify GET /hello: status 500", log_tail: "boom")
        @trial.alive = false
        repeats.measure([@cells[0]], 1, 1)
        assert_equal [[1, "verify GET /hello: status 500", "boom", @trial]], @fakes.failed
        assert_equal [[1, {}]], @fakes.retired
        assert_empty @fakes.kept
      end
    end
  end
end
