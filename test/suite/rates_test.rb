# frozen_string_literal: true

require "test_helper"

module Rackbench
  # rates: a rate sweep, each offered rate a level of every cell at each
  # concurrency; bad rates are one error naming the file, line and key.
  class SuiteRatesTest < Minitest::Test
    def refused(extra, line_pattern)
      path = write_suite({ "engine" => "native" }.merge(extra))
      error = assert_raises(ConfigError) { Suite.load(path) }
      [error.message, "#{path}:#{File.readlines(path).index { |l| l.match?(line_pattern) }.to_i + 1}:"]
    end

    def test_each_rate_is_a_level_of_each_concurrency_and_an_endpoints_own_rates_win
      suite = Suite.load(write_suite("engine" => "native", "concurrency" => [8, 32], "rates" => [50, 100],
                                     "endpoints" => ["/hello", { "path" => "/sleep/50", "rates" => [10] }]))
      cells = Plan.new(suite).cells.map { |c| [c.endpoint["path"], c.concurrency, c.rate] }
      assert_equal [["/hello", 8, 50], ["/hello", 8, 100], ["/hello", 32, 50], ["/hello", 32, 100],
                    ["/sleep/50", 8, 10], ["/sleep/50", 32, 10]], cells
    end

    def test_a_suite_without_rates_has_no_rate_levels
      assert(Plan.new(Suite.load(write_suite("engine" => "native"))).cells.all? { |c| c.rate.nil? })
    end

    def test_each_offered_rate_is_its_own_level_of_the_schedule
      suite = Suite.load(write_suite("engine" => "native", "rates" => [50, 100],
                                     "servers" => [{ "server" => "puma" }, { "server" => "thin" }]))
      levels = Schedule.new(order: "interleaved", seed: 1).levels(Plan.new(suite).cells)
      assert_equal([[50, 50], [100, 100]], levels.map { |_, blocks| blocks.flat_map(&:cells).map(&:rate) })
    end

    def test_arrivals_are_uniform_or_poisson
      assert_equal "poisson", Suite.load(write_suite("engine" => "native", "arrivals" => "poisson"))["arrivals"]
      message, = refused({ "arrivals" => "bursty" }, /^arrivals:/)
      assert_match "arrivals must be one of auto, uniform, poisson", message
    end

    def test_auto_rates_need_the_slo_their_search_grows_to
      suite = Suite.load(write_suite("engine" => "native", "rates" => "auto", "slo" => "p99<=200ms"))
      assert_equal "auto", suite["rates"]
      assert(Plan.new(suite).cells.all? { |c| c.rate.nil? }, "no level is planned before the search")
      message, = refused({ "rates" => "auto" }, /^rates:/)
      assert_match "rates auto needs slo:", message
      message, where = refused({ "rates" => "auto", "slo" => "p98<=1s" }, /^slo:/)
      assert_equal "#{where} slo cannot read \"p98<=1s\"; write e.g. 'p99<=100ms' or 'p99<=100ms,errors<=1%'", message
      message, = refused({ "endpoints" => [{ "path" => "/hello", "rates" => "auto" }], "slo" => "p99<=1s" }, /rates:/)
      assert_match "auto is the suite's, not an endpoint's", message
      error = assert_raises(ConfigError) { Runner.new(suite, store: nil) }
      assert_match "rates: auto is found before the run", error.message
    end

    # Two searches at least: one gives a knee no interval.
    def test_auto_rates_search_each_knee_three_times_unless_the_suite_says_how_often
      assert_equal 3, Suite.load(write_suite("engine" => "native", "rates" => "auto", "slo" => "p99<=1s"))["searches"]
      message, where = refused({ "rates" => "auto", "slo" => "p99<=1s", "searches" => 1 }, /^searches:/)
      assert_equal "#{where} searches must be a whole number >= 2, got 1", message
    end

    # Their probes: 2 s at the least unless the suite says (probe_s:, as tune's --probe-s).
    def test_auto_rates_probe_for_two_seconds_at_the_least_unless_the_suite_says
      assert_equal 2, Suite.load(write_suite("engine" => "native", "rates" => "auto", "slo" => "p99<=1s"))["probe_s"]
      assert_equal 1,
                   Suite.load(write_suite("engine" => "native", "rates" => "auto", "slo" => "p99<=1s", "probe_s" => 1))["probe_s"]
      message, where = refused({ "rates" => "auto", "slo" => "p99<=1s", "probe_s" => 0.1 }, /^probe_s:/)
      assert_equal "#{where} probe_s must be a finite number of seconds from 0.5 up to 10, got 0.1", message
    end

    def test_bad_rates_name_the_key
      message, where = refused({ "rates" => [100, 0] }, /^- 0$/)
      assert_equal "#{where} rates.1 must be a finite number of requests per second above 0, got 0", message
      message, where = refused({ "rates" => "fast" }, /^rates:/)
      assert_equal "#{where} rates must be a list of requests per second or auto, got \"fast\"", message
      message, = refused({ "rates" => [100], "rate" => 50 }, /^rates:/)
      assert_match "rates cannot be given with rate: (one fixed rate); choose one", message
      message, = refused({ "rates" => [100], "engine" => "wrk" }, /^rates:/)
      assert_match "a rate sweep needs engine: native", message
    end
  end
end
