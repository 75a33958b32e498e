# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # Which configs a budgeted tune gives the rest of their searches
    # (Tuner.next_leader); the searches themselves are tune_command_test's.
    class TunerTest < Minitest::Test
      Knee = Struct.new(:rate)

      def outcome(label, rate) = Tuner::Outcome.new(config: { "label" => label }, label: label, knee: rate && Knee.new(rate))

      def test_the_config_the_answer_would_recommend_is_finished_first_even_below_the_highest_rate
        outcomes = [outcome("x0:16", 218.0), outcome("x1:1", 234.0), outcome("x0:1", 236.0)]
        assert_equal "x0:16", Tuner.next_leader(outcomes, [], outcomes[0]).label
      end

      def test_then_the_highest_rate_not_yet_finished_and_no_more_than_two_leaders
        outcomes = [outcome("x0:16", 218.0), outcome("x1:1", 234.0), outcome("x0:1", 236.0), outcome("x0:2", nil)]
        assert_equal "x0:1", Tuner.next_leader(outcomes, [{ "label" => "x0:16" }], outcomes[0]).label
        assert_nil Tuner.next_leader(outcomes, [{ "label" => "x0:16" }, { "label" => "x0:1" }], outcomes[0])
      end

      # A finished leader's knee fell (236 -> 203 req/s): the config the
      # answer now recommends, searched once, is finished too.
      def test_a_recommendation_searched_once_is_finished_past_the_two_leaders
        outcomes = [outcome("x0:16", 218.0), outcome("x1:1", 234.0), outcome("x0:1", 203.0)]
        finished = [{ "label" => "x0:16" }, { "label" => "x0:1" }]
        assert_equal "x1:1", Tuner.next_leader(outcomes, finished, outcomes[1]).label
      end

      def test_nothing_is_finished_when_no_config_met_the_slo
        assert_nil Tuner.next_leader([outcome("x0:1", nil)], [], nil)
      end
    end
  end
end
