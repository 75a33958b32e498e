# frozen_string_literal: true

require "test_helper"
require_relative "../results/measurement_builds"

module Rackbench
  module Tune
    # The recommendation from a tune's outcomes (fake knees, no server): the
    # highest knee within the memory budget, ties broken by memory, and how
    # many workers fit the budget.
    class AnswerTest < Minitest::Test
      Knee = Struct.new(:rate, :interval, :probes, :knee_repeat) do
        def unconfirmed? = false
        def screened? = false
        def capacity_rps = nil
        def searches = 3
        def centres = [rate]
      end
      Tuned = Struct.new(:outcomes)

      def outcome(label, rate, pss_mb)
        Tuner::Outcome.new(config: { "label" => label }, label: label, knee: Knee.new(rate, nil, [], nil),
                           pss_bytes: pss_mb << 20)
      end

      def test_a_memory_budget_below_the_best_configs_pss_picks_the_next_that_fits
        tuned = Tuned.new([outcome("puma x4:5", 900.0, 400), outcome("puma x0:16", 600.0, 80)])
        slo = Slo.parse("p99<=100ms")
        assert_match(%r{\Apuma x4:5: knee 900 req/s}, Answer.new(tuned, slo: slo, memory_bytes: nil).sentence)
        assert_match(%r{\Apuma x0:16: knee 600 req/s}, Answer.new(tuned, slo: slo, memory_bytes: 200 << 20).sentence)
        assert_match "(over --memory)", Answer.new(tuned, slo: slo, memory_bytes: 200 << 20).table
      end

      # 100 MB PSS at the knee, two workers of 30 MB private each: 40 MB shared, so 12 workers fit 400 MB.
      def test_a_memory_budget_names_how_many_workers_of_the_recommendation_fit
        memory = { "pss_bytes" => 100 << 20, "requests" => 1000,
                   "workers" => [{ "uss_bytes" => 30 << 20, "pss_bytes" => 40 << 20 }] * 2 }
        repeat = Measurement::Repeat.new(index: 1, deployment: 1, result: Result.new(requests: 1000),
                                         resources: { "pss_max_bytes" => 100 << 20, "memory" => memory })
        tuned = Tuned.new([Tuner::Outcome.new(config: {}, label: "puma x2:4", knee: Knee.new(300.0, nil, [], repeat),
                                              pss_bytes: 100 << 20)])
        answer = Answer.new(tuned, slo: Slo.parse("p99<=100ms"), memory_bytes: 400 << 20)
        builds = MeasurementBuilds.during do
          assert_match "; 12 workers fit --memory 400 MB (40 MB shared + 30.0 MB per worker after 1,000 requests at the knee)",
                       answer.sentence
          assert_equal 12, answer.to_h["workers_fitting"]
        end
        assert_equal({ nil => 1 }, builds, "the knee probe's Measurement, built once")
        refute_match "fit", Answer.new(tuned, slo: Slo.parse("p99<=100ms"), memory_bytes: nil).sentence
      end

      def test_rates_closer_than_the_search_can_tell_apart_recommend_the_config_with_the_least_memory
        tuned = Tuned.new([outcome("puma x0:2", 130.0, 60), outcome("puma x0:1", 125.0, 30), outcome("puma x4:1", 100.0, 20)])
        answer = Answer.new(tuned, slo: Slo.parse("p99<=100ms"), memory_bytes: nil)
        assert_equal "puma x0:1: knee 125 req/s at p99 <= 100.0 ms, errors <= 0.1 %, 30 MB PSS; 1 other config sustains " \
                     "within 11 % of the highest (puma x0:2, 130 req/s), closer than the rate search can tell apart: " \
                     "this one uses the least memory; leader and runner-up not separated: the runner-up puma x0:2 " \
                     "(knee 130 req/s); no config searched twice yet, so no spread between searches", answer.sentence
      end

      def test_without_a_knee_there_is_no_recommendation_and_the_problem_says_how_many_were_tried
        no_knee = Tuner::Outcome.new(config: {}, label: "puma x0:1", knee: nil)
        answer = Answer.new(Tuned.new([no_knee, no_knee]), slo: Slo.parse("p99<=100ms"), memory_bytes: nil)
        assert_nil answer.best
        assert_equal "no config met p99 <= 100.0 ms, errors <= 0.1 % at any rate (2 tried)", answer.sentence
      end

      def test_when_every_config_is_over_the_memory_budget_the_problem_names_the_smallest
        tuned = Tuned.new([outcome("puma x4:5", 900.0, 400), outcome("puma x2:5", 600.0, 250)])
        answer = Answer.new(tuned, slo: Slo.parse("p99<=100ms"), memory_bytes: 200 << 20)
        assert_equal "every config that met the SLO is over --memory 200 MB: the smallest, puma x2:5, used 250 MB PSS " \
                     "at its knee", answer.problem
      end

      def test_a_single_config_with_a_knee_is_said_to_be_the_only_one
        answer = Answer.new(Tuned.new([outcome("puma x0:4", 300.0, 50)]), slo: Slo.parse("p99<=100ms"), memory_bytes: nil)
        assert answer.sentence.end_with?("; the only config with a knee"), answer.sentence
      end
    end
  end
end
