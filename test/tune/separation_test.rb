# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # Whether the leader is ahead of the runner-up, from fake searches' centres.
    class SeparationTest < Minitest::Test
      Sample = Struct.new(:centres)

      def outcome(label, centres) = Tuner::Outcome.new(config: { "label" => label }, label: label, knee: Sample.new(centres))

      # The leader searched twice (1,000 and 1,100), the runner-up once
      # (500), a third config twice (200, 220): the spread between searches
      # is pooled over the two searched twice (log 1.1 apart each: 2 degrees
      # of freedom), so a config searched once is compared too.
      def test_the_spread_between_searches_is_pooled_over_every_config_searched_twice
        leader = outcome("a", [1000.0, 1100.0])
        runner_up = outcome("b", [500.0])
        separation = Separation.new(leader, runner_up, [leader, runner_up, outcome("c", [200.0, 220.0])])
        assert_equal 2, separation.degrees_of_freedom
        assert_in_delta Math.log(1.1) / Math.sqrt(2), separation.spread, 1e-9
        assert_in_delta Math.sqrt(1000.0 * 1100.0) / 500, separation.ratio, 1e-9
        half = StudentT.critical(1 - (0.05 / Separation::LOOKS), 2) * separation.spread * Math.sqrt(1.5)
        assert_in_delta separation.ratio * Math.exp(-half), separation.interval.low, 1e-9
        assert_predicate separation, :separated?
      end

      def test_two_configs_within_the_spread_are_not_separated
        leader = outcome("a", [1000.0, 1100.0])
        runner_up = outcome("b", [950.0, 1020.0])
        separation = Separation.new(leader, runner_up, [leader, runner_up])
        assert_operator separation.interval.low, :<, 1
        refute_predicate separation, :separated?
      end

      def test_nothing_is_separated_before_some_config_was_searched_twice
        leader = outcome("a", [1000.0])
        runner_up = outcome("b", [100.0])
        separation = Separation.new(leader, runner_up, [leader, runner_up])
        assert_nil separation.interval
        refute_predicate separation, :separated?
      end
    end
  end
end
