# frozen_string_literal: true

require "test_helper"
require_relative "seed_fixtures"
require "rackbench/article/summary"

module Rackbench
  class ClaimTest < Minitest::Test
    include SeedFixtures

    PUMA = { "server" => "puma", "workers" => 2, "threads" => 10 }.freeze
    UNICORN = { "server" => "unicorn", "workers" => 2 }.freeze

    def cells
      [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 410.0, mean_ms: 120.0),
       cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0, mean_ms: 480.0),
       cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 50, status: "failed",
                                                      reason: "passenger cannot run here: gem passenger is not installed")]
    end

    def verdict(spec, scaled = nil) = Article::Claim.new(spec, cells, scaled: scaled).verdict

    def test_beats_answers_yes_with_the_measured_ratio
      v = verdict("says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "endpoint" => "sleep", "concurrency" => 50)
      assert_equal "yes", v["answer"]
      assert_match(%r{\APuma beats Unicorn: yes, 4.1x \[4.10, 4.10\] \(puma x2:10 410.0 req/s vs unicorn x2 100.0 req/s\)},
                   v["sentence"])
    end

    def test_beats_is_not_shown_when_the_ci_of_the_ratio_contains_one
      noisy = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: [0.8, 1.0, 1.25, 0.9]),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: [1.1, 0.95, 0.85, 1.2])]
      v = Article::Claim.new({ "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "endpoint" => "sleep" },
                             noisy).verdict
      assert_equal "not shown", v["answer"]
      low, high = v["detail"][/\[([\d.]+, [\d.]+)\]/, 1].split(", ").map(&:to_f)
      assert_operator low, :<, 1
      assert_operator high, :>, 1
    end

    def test_about_twice_as_fast_needs_the_ci_to_reach_the_claimed_band
      spec = { "says" => "Puma about twice Unicorn", "a" => PUMA, "b" => UNICORN, "endpoint" => "sleep", "factor" => [1.6, 2.5] }
      assert_equal "not shown", verdict(spec)["answer"], "4.1x [4.10, 4.10] is faster, but not about twice"
      close = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 190.0),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0)]
      assert_equal "yes", Article::Claim.new(spec, close).verdict["answer"]
    end

    def test_beats_answers_no_when_the_other_is_ahead
      v = verdict("says" => "Unicorn beats Puma", "a" => UNICORN, "b" => PUMA, "endpoint" => "sleep")
      assert_equal "no", v["answer"]
      assert_match "0.24x", v["detail"]
    end

    def test_a_lower_is_better_metric_turns_the_ratio_around
      v = verdict("says" => "Puma answers sooner", "metric" => "latency_mean_ms", "a" => PUMA, "b" => UNICORN,
                  "endpoint" => "sleep")
      assert_equal "yes", v["answer"]
      assert_match "4.0x", v["detail"]
    end

    def test_knob_values_written_as_in_the_article_follow_the_runs_scaling
      scaled = { "by" => "scale",
                 "changes" => [{ "key" => "workers", "from" => 4, "to" => 2 },
                               { "key" => "concurrency", "from" => 100, "to" => 50 }] }
      v = verdict({ "says" => "Puma x4:10 beats Unicorn x4", "a" => PUMA.merge("workers" => 4),
                    "b" => UNICORN.merge("workers" => 4), "endpoint" => "sleep", "concurrency" => 100 }, scaled)
      assert_equal "yes", v["answer"]
    end

    def test_a_change_made_for_one_endpoint_maps_only_the_claims_on_it
      spec = { "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "endpoint" => "sleep", "concurrency" => 250 }
      for_sleep = { "by" => "scale", "changes" => [{ "key" => "concurrency", "from" => 250, "to" => 50, "endpoint" => "sleep" }] }
      assert_equal "yes", verdict(spec, for_sleep)["answer"]
      for_hello = { "by" => "scale", "changes" => [{ "key" => "concurrency", "from" => 250, "to" => 50, "endpoint" => "hello" }] }
      assert_equal "not measured", verdict(spec, for_hello)["answer"], "sleep was measured at 50, not at the article's 250"
      assert_equal "yes", verdict(spec.merge("endpoint" => "/sleep"), for_sleep)["answer"], "the claim names the path"
    end

    def test_a_claim_needing_more_server_cpus_than_the_run_had_cannot_show_here_and_keeps_its_figures
      spec = { "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "endpoint" => "sleep", "needs_cpus" => 4 }
      v = Article::Claim.new(spec, cells, server_cpus: 1).verdict
      assert_equal "cannot show here", v["answer"]
      assert_match "a difference needs 4 CPUs for the server and it had 1 CPU here (measured: yes, 4.1x", v["detail"]
      assert_equal "yes", Article::Claim.new(spec, cells, server_cpus: 4).verdict["answer"]
      failed = spec.merge("a" => { "server" => "passenger" })
      assert_equal "not measured", Article::Claim.new(failed, cells, server_cpus: 1).verdict["answer"]
    end

    def test_good_requests_per_s_leaves_rejected_requests_out_of_the_rate
      rejecting = cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 50, rps: 1000.0, requests: 1000,
                                                                 rejected: 900)
      spec = { "says" => "Puma beats Passenger", "metric" => "good_requests_per_s", "a" => PUMA,
               "b" => { "server" => "passenger" }, "endpoint" => "sleep" }
      v = Article::Claim.new(spec, cells.first(2) + [rejecting]).verdict
      assert_equal "yes", v["answer"]
      assert_match "passenger 100.0 good req/s", v["detail"]
      raw = Article::Claim.new(spec.merge("metric" => "requests_per_s"), cells.first(2) + [rejecting]).verdict
      assert_equal "no", raw["answer"], "counting the 900 rejections, passenger's 1000 req/s is ahead"
    end

    def test_a_failed_server_is_not_measured_and_says_why
      v = verdict("says" => "Puma beats Passenger", "a" => PUMA, "b" => { "server" => "passenger" }, "endpoint" => "sleep")
      assert_equal "not measured", v["answer"]
      assert_match "gem passenger is not installed", v["detail"]
    end

    def test_ties_holds_within_the_tolerance_only
      close = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0),
               cell("b", { "server" => "thin", "instances" => 5 }, rps: 104.0)]
      spec = { "says" => "5 ties 4", "kind" => "ties", "a" => { "instances" => 5 }, "b" => { "instances" => 4 } }
      assert_equal "yes", Article::Claim.new(spec, close).verdict["answer"]
      assert_equal "no", Article::Claim.new(spec.merge("tolerance" => 0.02), close).verdict["answer"]
      straddling = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0, spread: [0.95, 1.0, 1.05]),
                    cell("b", { "server" => "thin", "instances" => 5 }, rps: 100.0, spread: [1.05, 0.85, 1.15])]
      assert_equal "not shown", Article::Claim.new(spec, straddling).verdict["answer"]
      once = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0, spread: [1.0]),
              cell("b", { "server" => "thin", "instances" => 5 }, rps: 101.0, spread: [1.0])]
      assert_equal "not shown", Article::Claim.new(spec, once).verdict["answer"], "one repeat each: no CI, no tie shown"
    end

    def test_leads_compares_with_the_best_rival_and_names_the_missing_ones
      v = verdict("says" => "Puma leads", "kind" => "leads", "a" => { "server" => "puma" }, "endpoint" => "sleep")
      assert_equal "yes", v["answer"]
      assert_match "against the closest, unicorn x2: 4.1x", v["detail"]
      assert_match "not measured: passenger", v["detail"]
    end

    def test_nested_proxy_settings_match_a_subset
      thin = { "server" => "thin", "instances" => 3 }
      proxied = [cell("thin x3 via lighttpd hash",
                      thin.merge("proxy" => { "proxy" => "lighttpd", "balance" => "hash" }), rps: 50.0),
                 cell("thin x3 via lighttpd rr",
                      thin.merge("proxy" => { "proxy" => "lighttpd", "balance" => "round-robin" }), rps: 140.0)]
      spec = { "says" => "rr beats hash", "a" => { "proxy" => { "balance" => "round-robin" } },
               "b" => { "proxy" => { "balance" => "hash" } } }
      assert_match "yes, 2.8x", Article::Claim.new(spec, proxied).verdict["sentence"]
    end

    def test_warm_up_is_read_from_the_per_second_series
      slow_start = (1..8).map { |t| { "t_s" => t.to_f, "requests" => t <= 2 ? 300 : 1000 } }
      flat = (1..8).map { |t| { "t_s" => t.to_f, "requests" => 1000 } }
      list = [cell("jruby", { "server" => "torquebox" }, series: slow_start), cell("mri", { "server" => "puma" }, series: flat)]
      warm = ->(server) { Article::Claim.new({ "says" => "warms up", "kind" => "warms_up", "a" => { "server" => server } }, list).verdict }
      assert_equal "yes", warm.call("torquebox")["answer"]
      assert_match "30% [30%, 30%] of the last 4 s", warm.call("torquebox")["detail"]
      assert_equal "no", warm.call("puma")["answer"]
    end

    def test_an_unknown_kind_is_a_config_error
      assert_raises(ConfigError) { Article::Claim.new({ "says" => "x", "kind" => "wins" }, cells) }
    end
  end
end
