# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # What a Tuner keeps of each config (Outcome), from its KneeSample (a
    # fake here): the rate, where its searches put the knee, and whether it
    # was screened out, is still waiting for a search or has none. (A tune
    # of a real puma, searched, confirmed and stored: test/tune/tune_command_test.rb.)
    class TunerTest < Minitest::Test
      Sample = Struct.new(:rate, :centres, :searches, :capacity_rps, :screened, keyword_init: true) do
        def interval = nil
        def unconfirmed? = false
        def screened? = screened || false
      end

      def outcome(**sample) = Tuner::Outcome.new(config: {}, label: "puma x2:4", knee: Sample.new(**sample))

      def test_a_config_is_ranked_by_where_its_searches_put_the_knee_not_by_its_reported_rate
        searched = outcome(rate: 400.0, centres: [400.0, 900.0], searches: 2)
        assert_in_delta Math.sqrt(400.0 * 900.0), searched.level_rps, 1e-9, "the geometric mean of the centres"
        assert_equal 400.0, searched.rate
        assert_equal 500.0, outcome(rate: 500.0, centres: [], searches: 1).level_rps, "without centres: the rate"
      end

      def test_a_screened_in_config_without_a_search_is_waiting_and_a_screened_out_one_is_not
        assert outcome(capacity_rps: 900.0, searches: 0).waiting?
        refute outcome(capacity_rps: 300.0, searches: 0, screened: true).waiting?
        refute outcome(capacity_rps: 900.0, centres: [800.0], searches: 1).waiting?, "searched"
      end

      def test_a_config_that_failed_has_no_rate_no_searches_and_nothing_waiting
        failed = Tuner::Outcome.new(config: {}, label: "thin", knee: nil, error: "exited")
        assert_nil failed.rate
        assert_nil failed.p99_ms
        refute failed.waiting?
        refute failed.screened?
      end
    end
  end
end
