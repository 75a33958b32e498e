# frozen_string_literal: true

require "test_helper"
require "rackbench/article/answer"

module Rackbench
  class AnswerTest < Minitest::Test
    INTERVAL = Stats::Interval.new(1.1, 1.4, 1.25, 0.95)

    def test_an_answer_is_data_an_outcome_and_a_reason_from_fixed_lists
      answer = Article::Answer.new(outcome: :yes, reason: :supported, interval: INTERVAL, facts: { "band" => [1.6, 2.5] })
      assert answer.decided?
      refute Article::Answer.new(outcome: :not_settled, reason: :undecided).decided?
      assert_raises(ArgumentError) { Article::Answer.new(outcome: :maybe, reason: :supported) }
      assert_raises(ArgumentError) { Article::Answer.new(outcome: :yes, reason: :because) }
      assert_equal({ "low" => 1.1, "high" => 1.4, "estimate" => 1.25, "level" => 0.95 }, answer.to_h["interval"])
    end

    def test_overruling_keeps_the_interval_and_what_was_measured
      answer = Article::Answer.new(outcome: :yes, reason: :supported, interval: INTERVAL).for("x8 beats x4", "beats")
      cannot = answer.overruled(:cannot_show_here, :too_few_cpus, needs_cpus: 8, had_cpus: 2)
      assert_equal [:cannot_show_here, :too_few_cpus, INTERVAL, "x8 beats x4", "beats"],
                   [cannot.outcome, cannot.reason, cannot.interval, cannot.says, cannot.kind]
      assert_equal({ "needs_cpus" => 8, "had_cpus" => 2, "measured" => :yes }, cannot.facts)
    end
  end
end
