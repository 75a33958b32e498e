# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Reports
    # A tune run's table of configs, from the answer stored with the run.
    class TuneAnswerTest < Minitest::Test
      def config(label, **fields)
        { "label" => label, "config" => { "server" => "puma" }, "probes" => [] }.merge(fields.transform_keys(&:to_s))
      end

      def rows(*configs) = TuneAnswer.grid(configs, nil).rows

      def test_a_knee_says_its_interval_and_how_many_searches_gave_it
        row, single, unconfirmed = rows(config("puma x4:16", sustainable_rate: 989.4, ci: [984.2, 1539.0], searches: 3),
                                        config("puma x1:4", sustainable_rate: 64.0, searches: 1),
                                        config("puma x0:1", unconfirmed: true, searches: 3, confirmed_searches: 1))
        assert_equal "knee 989 req/s [984, 1539] from 3 searches", row[1]
        assert_equal "knee 64 req/s from 1 search", single[1]
        assert_equal "knee not confirmed (1 of 3 searches)", unconfirmed[1]
      end

      def test_a_met_rate_below_the_knees_interval_is_said_apart_from_it
        below, = rows(config("puma x0:1", sustainable_rate: 64.0, ci: [65.2, 86.0], searches: 2))
        assert_equal "sustains 64 req/s; knee [65, 86] from 2 searches", below[1]
      end

      def test_a_p99_at_the_knee_needs_a_thousand_requests_behind_it
        enough, few = rows(config("a", sustainable_rate: 50.0, p99_ms: 120.04, knee_requests: 1200),
                           config("b", sustainable_rate: 50.0, p99_ms: 120.04, knee_requests: 254))
        assert_equal ["120.0", "n=254, too few"], [enough[2], few[2]]
      end
    end
  end
end
