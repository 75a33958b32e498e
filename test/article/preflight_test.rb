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

    QUEUE = [{ "says" => "x1:10 beats x2:5 at 50", "needs_queue" => true, "endpoint" => "/hello", "concurrency" => 50,
               "a" => { "server" => "puma", "workers" => 1, "threads" => 10 },
               "b" => { "server" => "puma", "workers" => 2, "threads" => 5 } }].freeze

    def test_a_claim_on_a_queue_cannot_be_settled_where_the_clients_are_no_more_than_the_threads
      servers = [{ "server" => "puma", "workers" => 1, "threads" => 10 }, { "server" => "puma", "workers" => 2, "threads" => 5 }]
      yaml = suite_yaml({ "concurrency" => [50], "servers" => servers, "scale" => { "concurrency" => { 50 => 10 } },
                          "article" => { "claims" => QUEUE } })
      queued = Suite.new(yaml, overrides: { "scale" => true })
      answer = Article::Preflight.new(queued, server_cpus: 8).answers.first
      assert_equal [:cannot_show_here, :too_few_clients, 10, { "a" => 10, "b" => 10 }],
                   [answer.outcome, answer.reason, *answer.facts.values_at("clients", "threads")]
      assert_equal "x1:10 beats x2:5 at 50: cannot show here, the article's effect needs clients waiting for a thread: it " \
                   "had 50 clients for 10 and 10 threads (a, b); here 10 clients for 10 and 10",
                   Reports::ClaimText.new(answer).sentence
      assert_empty Article::Preflight.new(Suite.new(yaml), server_cpus: 8).answers, "at full size 50 clients queue for 10"
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
