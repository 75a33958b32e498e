# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # rates: auto: the sweep's rates from the knees its search found, the
    # same for every config, and the suite rewritten with them.
    class AutoRatesTest < Minitest::Test
      # The search replaced by knees given per endpoint (the rewriting is what is tested here).
      class GivenKnees < AutoRates
        def initialize(suite, knees)
          super(suite, store: nil, supervisor: nil)
          @given = knees
        end

        def search(name, _workload)
          @given.fetch(name).map { |config, rate| { "endpoint" => name, "config" => config, "rate" => rate } }
                .tap { |knees| @knees.concat(knees) }
        end
      end

      def auto_suite(extra = {})
        Suite.load(write_suite({ "engine" => "native", "rates" => "auto", "slo" => "p99<=200ms" }.merge(extra)))
      end

      def test_the_rates_run_from_half_the_lowest_knee_to_one_and_a_half_times_the_highest_with_the_knees
        rates = AutoRates.levels([75.0, 160.0])
        assert_equal 37.5, rates.first
        assert_equal 240, rates.last
        assert_includes rates, 75
        assert_includes rates, 160
        assert_equal rates.sort, rates
        assert(rates.each_cons(2).all? { |a, b| b > a * (1 + AutoRates::CLOSE) }, "no two rates closer than 10 %")
      end

      def test_each_endpoint_gets_its_own_rates_and_every_config_the_same
        suite = auto_suite("endpoints" => ["/hello", { "path" => "/sleep/50", "expect_body" => "slept" }],
                           "servers" => [{ "server" => "puma", "threads" => 4 }, { "server" => "webrick" }])
        auto = GivenKnees.new(suite, "/hello" => { "puma x0:4" => 900.0, "webrick" => 300.0 },
                                     "/sleep/50" => { "puma x0:4" => 75.0, "webrick" => 19.0 })
        resolved = auto.resolve
        refute resolved.data.key?("rates"), "no suite-wide list: each endpoint has its own"
        hello, sleep = resolved["endpoints"]
        assert_equal AutoRates.levels([900.0, 300.0]), hello["rates"]
        assert_equal "slept", sleep["expect_body"], "the endpoint keeps its own keys"
        cells = Plan.new(resolved).cells
        assert_equal(AutoRates.levels([75.0, 19.0]) * 2, cells.select { |c| c.endpoint["path"] == "/sleep/50" }.map(&:rate))
        assert_equal({ "slo" => "p99 <= 200.0 ms, errors <= 0.1 %", "knees" => 4, "rates" => %w[/hello /sleep/50] },
                     auto.to_h.merge("knees" => auto.to_h["knees"].size, "rates" => auto.to_h["rates"].keys))
      end

      def test_a_mix_is_searched_as_one_traffic_and_sets_the_suites_rates
        suite = auto_suite("endpoints" => ["/hello", "/sleep/50"],
                           "mix" => [{ "endpoint" => "/hello", "weight" => 1 }, { "endpoint" => "/sleep/50", "weight" => 1 }])
        resolved = GivenKnees.new(suite, Traffic::MIX_NAME => { "puma" => 40.0 }).resolve
        assert_equal AutoRates.levels([40.0]), resolved["rates"]
      end

      def test_a_suite_with_services_is_refused_before_anything_starts
        suite = auto_suite("services" => [{ "service" => "upstream" }])
        error = assert_raises(ConfigError) { GivenKnees.new(suite, {}).resolve }
        assert_match "rates: auto cannot start a suite's services", error.message
      end
    end
  end
end
