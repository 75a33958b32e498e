# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/article/summary"

module Rackbench
  class PrintedTest < Minitest::Test
    include SeedFixtures

    HASH = { "server" => "mongrel", "proxy" => { "balance" => "hash" } }.freeze
    ROUND_ROBIN = { "server" => "mongrel", "proxy" => { "balance" => "round-robin" } }.freeze
    PRINTED = { "hardware" => "an Atom 330", "versions" => "lighttpd 1.4",
                "rows" => [{ "a" => { "server" => "mongrel", "proxy" => { "balance" => "hash" } }, "requests_per_s" => 21.41,
                             "longest_ms" => 22_795, "errors" => "0/10000" },
                           { "a" => { "server" => "mongrel", "proxy" => { "balance" => "round-robin" } },
                             "requests_per_s" => 39.73, "longest_ms" => 17_132, "errors" => "100/10000" }] }.freeze

    def cells = [cell("mongrel hash", HASH, rps: 95.0), cell("mongrel rr", ROUND_ROBIN, rps: 280.0)]

    def test_each_printed_row_is_matched_to_this_runs_cell_of_the_same_config
      printed = Article::Printed.new(PRINTED, cells)
      assert_equal ["mongrel hash", "mongrel rr"], printed.rows.map(&:label)
      assert_equal([95.0, 280.0], printed.rows.map { |r| r.here.requests_per_s })
      assert_equal %w[requests_per_s longest_ms errors], printed.metrics
    end

    def test_the_articles_ratio_is_taken_on_the_claims_metric_and_turned_for_lower_is_better
      printed = Article::Printed.new(PRINTED, cells)
      claim = { "a" => ROUND_ROBIN, "b" => HASH, "metric" => "requests_per_s" }
      assert_in_delta 39.73 / 21.41, printed.ratio(claim), 1e-9
      assert_in_delta 39.73 * 0.99 / 21.41, printed.ratio(claim.merge("metric" => "good_requests_per_s")), 1e-9,
                      "good responses: the printed rate less its errors' n/tot"
      assert_in_delta 22_795 / 17_132.0, printed.ratio(claim.merge("metric" => "longest_ms")), 1e-9
      assert_nil printed.ratio(claim.merge("metric" => "server_load")), "the article printed no server load here"
    end
  end
end
