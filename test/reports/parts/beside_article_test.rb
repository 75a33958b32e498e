# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"
require "rackbench/article/summary"
require "rackbench/reports/parts/claim_text"
require "rackbench/reports/parts/beside_article"

module Rackbench
  class BesideArticleTest < Minitest::Test
    include SeedFixtures

    HASH = { "server" => "mongrel", "proxy" => { "balance" => "hash" } }.freeze
    ROUND_ROBIN = { "server" => "mongrel", "proxy" => { "balance" => "round-robin" } }.freeze

    def article
      { "printed" => { "hardware" => "an Atom 330", "versions" => "lighttpd 1.4",
                       "rows" => [{ "a" => HASH, "requests_per_s" => 21.41, "errors" => "0/10000" },
                                  { "a" => ROUND_ROBIN, "requests_per_s" => 39.73, "errors" => "0/10000" }] },
        "claims" => [{ "says" => "Round-robin about twice hash", "factor" => [1.6, 2.5], "a" => ROUND_ROBIN, "b" => HASH,
                       "likely" => "Three backends serve three times one." },
                     { "says" => "Round-robin serves the page", "kind" => "no_errors", "a" => ROUND_ROBIN }] }
    end

    def render
      cells = [cell("mongrel hash", HASH, rps: 95.0), cell("mongrel rr", ROUND_ROBIN, rps: 285.0)]
      summary = Article::Summary.new(stored_run(article: article), cells)
      Reports::BesideArticle.new(summary, summary.answers).render
    end

    def test_the_articles_figures_stand_beside_this_runs_with_the_claims_ratios
      text = render
      assert_match "The article's machine: an Atom 330. Its versions: lighttpd 1.4.", text
      assert_match "| config | where | req/s: article | here | errors n/tot: article | here |", text
      assert_match "| mongrel hash | hello c=10 | 21.41 | 95.0 | 0/10000 | 0/3000 |", text
      assert_match "| Round-robin about twice hash | good_requests_per_s | 1.86x | 3.00x [3.00, 3.00] | no |", text
    end

    def test_the_paragraph_says_what_agrees_what_does_not_and_the_likely_reason
      text = render
      assert_match "Of the article's 2 claims, this run: 1 agrees (Round-robin serves the page), 1 disagrees " \
                   "(Round-robin about twice hash). Likely reasons: Three backends serve three times one.", text
    end
  end
end
