# frozen_string_literal: true

require "test_helper"
require "rackbench/article/preflight"
require "rackbench/reports/parts/claim_text"

module Rackbench
  class PreflightTest < Minitest::Test
    CLAIMS = [{ "says" => "x8 beats x4", "needs_cpus" => 8, "a" => { "server" => "puma", "workers" => 8 },
                "b" => { "server" => "puma", "workers" => 4 } },
              { "says" => "Puma beats WEBrick", "a" => { "server" => "puma" }, "b" => { "server" => "webrick" } }].freeze

    def suite(claims = CLAIMS, extra = {})
      Suite.new(suite_yaml({ "servers" => [{ "server" => "puma" }], "article" => { "claims" => claims } }.merge(extra)))
    end

    def test_a_claim_resting_on_more_cpus_than_the_server_gets_cannot_be_settled_here
      answers = Article::Preflight.new(suite, server_cpus: 2).answers
      assert_equal ["x8 beats x4"], answers.map(&:says), "the other claim's servers run here"
      answer = answers.first
      assert_equal [:cannot_show_here, :too_few_cpus, 8, 2],
                   [answer.outcome, answer.reason, *answer.facts.values_at("needs_cpus", "had_cpus")]
      assert_equal "x8 beats x4: cannot show here, a difference needs 8 CPUs for the server and it had 2 CPUs here",
                   Reports::ClaimText.new(answer).sentence
      assert_empty Article::Preflight.new(suite, server_cpus: 8).answers
    end

    def test_a_server_that_is_not_installed_is_named_with_what_installs_it
      missing = "gem webrick is not installed (bin/setup webrick installs it)"
      Servers.fetch("webrick").stub(:unavailable_reason, missing) do
        answer = Article::Preflight.new(suite, server_cpus: 8).answers.first
        assert_equal [:not_installed, { "webrick" => missing }], [answer.reason, answer.facts["missing"]]
        assert_match "not installed here: webrick: #{missing}", Reports::ClaimText.new(answer).detail
      end
    end

    def test_a_warm_up_claim_needs_an_engine_with_a_per_second_series
      warm = [{ "says" => "puma warms up", "kind" => "warms_up", "a" => { "server" => "puma" } }]
      assert_equal [:no_series], Article::Preflight.new(suite(warm, "engine" => "wrk"), server_cpus: 8).answers.map(&:reason)
      assert_empty Article::Preflight.new(suite(warm, "engine" => "native"), server_cpus: 8).answers
    end
  end
end
