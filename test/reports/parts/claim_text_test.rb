# frozen_string_literal: true

require "test_helper"
require "rackbench/article/answer"
require "rackbench/reports/parts/claim_text"

module Rackbench
  class ClaimTextTest < Minitest::Test
    def answer(outcome, reason, **facts)
      Article::Answer.new(outcome: outcome, reason: reason, interval: Stats::Interval.new(0.93, 1.17, 1.04, 0.95),
                          facts: facts.transform_keys(&:to_s)).for("Thin beats Unicorn", "beats")
    end

    def test_an_unsettled_answer_says_its_interval_the_figures_and_what_more_would_take
      a = { "label" => "thin", "value" => 410.0, "metric" => "requests_per_s" }
      b = { "label" => "unicorn", "value" => 395.0, "metric" => "requests_per_s" }
      text = Reports::ClaimText.new(answer(:not_settled, :undecided, a: a, b: b, more_starts: 3, more_s: 90))
      assert_equal "not settled", text.word
      assert_equal "Thin beats Unicorn: not settled, 1.04x [0.93, 1.17] (thin 410.0 req/s vs unicorn 395.0 req/s); " \
                   "about 3 more starts of each would likely settle it (90 s of load)", text.sentence
    end

    def test_the_tally_counts_outcomes_decided_first
      answers = [answer(:yes, :supported), answer(:equivalent, :within_margin), answer(:not_settled, :one_start),
                 answer(:cannot_show_here, :too_few_cpus), answer(:yes, :supported)]
      assert_equal "Decided 3 of 5 (yes 2, equivalent 1); not settled 1; cannot show here 1.", Reports::ClaimText.tally(answers)
    end
  end
end
