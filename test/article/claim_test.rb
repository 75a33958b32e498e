# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/article/summary"
require "rackbench/reports/parts/claim_text"

module Rackbench
  class ClaimTest < Minitest::Test
    include SeedFixtures

    PUMA = { "server" => "puma", "workers" => 2, "threads" => 10 }.freeze
    UNICORN = { "server" => "unicorn", "workers" => 2 }.freeze
    NOISY_A = [0.8, 1.0, 1.25, 0.9].freeze
    NOISY_B = [1.1, 0.95, 0.85, 1.2].freeze

    def cells
      [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 410.0, mean_ms: 120.0),
       cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0, mean_ms: 480.0),
       cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 50, status: "failed",
                                                      reason: "passenger cannot run here: gem passenger is not installed")]
    end

    def answer(spec, list = cells, **options) = Article::Claim.new({ "endpoint" => "sleep" }.merge(spec), list, **options).answer
    def text(answer) = Reports::ClaimText.new(answer)

    def test_beats_answers_yes_with_the_comparisons_interval_as_data
      a = answer({ "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "concurrency" => 50 })
      assert_equal %i[yes supported], [a.outcome, a.reason]
      assert_in_delta 4.1, a.interval.estimate, 0.001
      assert_equal 0.95, a.interval.level
      assert_equal ["puma x2:10", 410.0], a.facts["a"].values_at("label", "value")
      assert_equal "Puma beats Unicorn: yes, 4.1x [4.10, 4.10] (puma x2:10 410.0 good req/s vs unicorn x2 100.0 good req/s)",
                   text(a).sentence
    end

    def test_beats_is_not_settled_while_the_interval_contains_one_and_says_what_more_would_take
      close = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: [0.95, 1.0, 1.05, 0.98]),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 108.0, spread: [1.04, 0.97, 0.99, 1.02])]
      a = answer({ "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN }, close)
      assert_equal %i[not_settled undecided], [a.outcome, a.reason]
      assert_operator a.interval.low, :<, 1
      assert_operator a.interval.high, :>, 1
      assert_includes 1..12, a.facts["more_starts"], "within reach of the 4 starts spent (at most 3x)"
      assert_equal 4, a.facts["after_starts"]
      assert_operator a.facts["more_s"], :>, 0
      noisy = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: NOISY_A),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 102.0, spread: NOISY_B)]
      far = answer({ "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN }, noisy)
      assert_equal :not_settled, far.outcome
      assert_operator far.facts["more_starts"], :>, 3 * 4, "named even past 3x the starts spent: the time it would take"
      assert_match(/about #{far.facts["more_starts"]} more starts of each \(after \d+\) would likely settle it \(\d/,
                   text(far).sentence)
    end

    def test_about_twice_as_fast_is_no_when_the_interval_is_clear_of_the_band
      spec = { "says" => "Puma about twice Unicorn", "a" => PUMA, "b" => UNICORN, "factor" => [1.6, 2.5] }
      a = answer(spec)
      assert_equal %i[no outside_band], [a.outcome, a.reason], "4.1x [4.10, 4.10] is faster, but not about twice"
      close = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 190.0),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0)]
      assert_equal :yes, answer(spec, close).outcome
      straddling = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 250.0, spread: [0.9, 1.0, 1.1]),
                    cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: [1.05, 0.95, 1.0])]
      assert_equal :not_settled, answer(spec, straddling).outcome, "[1.79, 3.47] reaches past the band's 2.5"
      inside = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 200.0, spread: [0.9, 1.0, 1.1]),
                cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0, spread: [1.05, 0.95, 1.0])]
      open = answer(spec, inside)
      assert_equal :not_settled, open.outcome
      assert_operator open.facts["more_starts"], :>=, 1, "the starts that would bring 2.0x's interval inside the band"
      assert_equal 3, open.facts["after_starts"]
    end

    def test_beats_answers_no_when_the_other_is_ahead_and_a_lower_is_better_metric_turns_the_ratio
      a = answer({ "says" => "Unicorn beats Puma", "a" => UNICORN, "b" => PUMA })
      assert_equal %i[no contradicted], [a.outcome, a.reason]
      assert_in_delta 100 / 410.0, a.interval.estimate, 0.001
      sooner = answer({ "says" => "Puma answers sooner", "metric" => "latency_mean_ms", "a" => PUMA, "b" => UNICORN })
      assert_equal :yes, sooner.outcome
      assert_in_delta 4.0, sooner.interval.estimate, 0.001
    end

    def test_beats_is_equivalent_when_the_interval_lies_within_the_margin
      alike = [cell("puma x2:10", PUMA, endpoint: "sleep", concurrency: 50, rps: 100.0),
               cell("unicorn x2", UNICORN, endpoint: "sleep", concurrency: 50, rps: 100.0)]
      a = answer({ "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN }, alike)
      assert_equal %i[equivalent within_margin], [a.outcome, a.reason]
    end

    def test_knob_values_written_as_in_the_article_follow_the_runs_scaling
      scaled = { "by" => "scale",
                 "changes" => [{ "key" => "workers", "from" => 4, "to" => 2 },
                               { "key" => "concurrency", "from" => 100, "to" => 50 }] }
      a = answer({ "says" => "Puma x4:10 beats Unicorn x4", "a" => PUMA.merge("workers" => 4),
                   "b" => UNICORN.merge("workers" => 4), "concurrency" => 100 }, scaled: scaled)
      assert_equal :yes, a.outcome
    end

    def test_a_change_made_for_one_endpoint_maps_only_the_claims_on_it
      spec = { "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "concurrency" => 250 }
      for_sleep = { "by" => "scale", "changes" => [{ "key" => "concurrency", "from" => 250, "to" => 50, "endpoint" => "sleep" }] }
      assert_equal :yes, answer(spec, scaled: for_sleep).outcome
      for_hello = { "by" => "scale", "changes" => [{ "key" => "concurrency", "from" => 250, "to" => 50, "endpoint" => "hello" }] }
      missed = answer(spec, scaled: for_hello)
      assert_equal %i[cannot_show_here not_measured], [missed.outcome, missed.reason], "sleep was measured at 50, not 250"
      assert_equal :yes, answer(spec.merge("endpoint" => "/sleep"), scaled: for_sleep).outcome, "the claim names the path"
    end

    def test_a_claim_needing_more_server_cpus_than_the_run_had_cannot_show_here_and_keeps_its_interval
      spec = { "says" => "Puma beats Unicorn", "a" => PUMA, "b" => UNICORN, "needs_cpus" => 8 }
      a = answer(spec, server_cpus: 1)
      assert_equal %i[cannot_show_here too_few_cpus], [a.outcome, a.reason]
      assert_equal [8, 1, :yes], a.facts.values_at("needs_cpus", "had_cpus", "measured")
      assert_in_delta 4.1, a.interval.estimate, 0.001
      assert_match "a difference needs 8 CPUs for the server and it had 1 CPU here (measured: yes, 4.1x", text(a).detail
      assert_equal :yes, answer(spec, server_cpus: 8).outcome
      left_out = answer(spec.merge("a" => { "server" => "passenger" }), server_cpus: 1)
      assert_equal %i[cannot_show_here too_few_cpus], [left_out.outcome, left_out.reason], "a run may leave such cells out"
      assert_match "it had 1 CPU here (not measured)", text(left_out).detail
    end

    def test_good_requests_per_s_leaves_rejected_requests_out_of_the_rate
      rejecting = cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 50, rps: 1000.0, requests: 1000,
                                                                 rejected: 900)
      spec = { "says" => "Puma beats Passenger", "a" => PUMA, "b" => { "server" => "passenger" } }
      a = answer(spec, cells.first(2) + [rejecting])
      assert_equal :yes, a.outcome, "the default metric counts good responses, whatever passenger's errors"
      assert_equal 100.0, a.facts.dig("b", "value")
      raw = answer(spec.merge("metric" => "requests_per_s"), cells.first(2) + [rejecting])
      assert_equal %i[not_settled errors], [raw.outcome, raw.reason], "all responses of a side failing 90 %: no speed verdict"
      assert_in_delta 0.9, raw.facts["errors"]["passenger"], 0.001
    end

    def test_a_failed_server_cannot_show_here_and_names_its_reason
      a = answer({ "says" => "Puma beats Passenger", "a" => PUMA, "b" => { "server" => "passenger" } })
      assert_equal %i[cannot_show_here not_measured], [a.outcome, a.reason]
      reason = "passenger cannot run here: gem passenger is not installed"
      assert_equal [{ "side" => "b", "label" => "passenger", "reason" => reason }], a.facts["failures"]
    end

    def test_ties_is_the_comparisons_equivalence_with_its_margin
      close = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0),
               cell("b", { "server" => "thin", "instances" => 5 }, rps: 104.0)]
      spec = { "says" => "5 ties 4", "kind" => "ties", "a" => { "instances" => 5 }, "b" => { "instances" => 4 },
               "endpoint" => "hello" }
      tie = Article::Claim.new(spec, close).answer
      assert_equal %i[equivalent within_margin], [tie.outcome, tie.reason], "1.04x within the comparison's ±5 %"
      assert_equal Comparison::MARGIN, tie.facts["margin"]
      assert_equal :no, Article::Claim.new(spec, close, margin: 0.02).answer.outcome, "the run's margin: ±2 %"
      assert_equal :no, Article::Claim.new(spec.merge("margin" => 0.02), close).answer.outcome, "the claim's own margin"
      straddling = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0, spread: [0.95, 1.0, 1.05]),
                    cell("b", { "server" => "thin", "instances" => 5 }, rps: 100.0, spread: [1.05, 0.85, 1.15])]
      assert_equal :not_settled, Article::Claim.new(spec, straddling).answer.outcome
      once = [cell("a", { "server" => "thin", "instances" => 4 }, rps: 100.0, spread: [1.0]),
              cell("b", { "server" => "thin", "instances" => 5 }, rps: 101.0, spread: [1.0])]
      assert_equal(%i[not_settled one_start], Article::Claim.new(spec, once).answer.then { |a| [a.outcome, a.reason] })
    end

    def test_leads_counts_good_responses_and_decides_when_a_rival_errs
      erring = [cell("puma", { "server" => "puma" }, rps: 2500.0),
                cell("thin", { "server" => "thin" }, rps: 1300.0, errors: 30),
                cell("passenger", { "server" => "passenger" }, rps: 1400.0, rejected: 120),
                cell("unicorn", { "server" => "unicorn" }, rps: 300.0, errors: 55)]
      spec = { "says" => "Puma leads", "kind" => "leads", "a" => { "server" => "puma" }, "endpoint" => "hello" }
      a = Article::Claim.new(spec, erring).answer
      assert_equal %i[yes supported], [a.outcome, a.reason], "thin, passenger and unicorn fail over 1 % of their requests"
      assert_equal "thin", a.facts.dig("rival", "label"), "the closest rival on good responses: 1300 x 1000/1030"
      assert_equal 3, a.facts["rivals"]
      behind = Article::Claim.new(spec.merge("a" => { "server" => "unicorn" }, "kind" => "trails"), erring).answer
      assert_equal :yes, behind.outcome, "unicorn trails every rival"
    end

    def test_leads_is_no_when_a_rival_is_ahead_and_rivals_limits_the_field
      list = [cell("torquebox", { "server" => "torquebox" }, rps: 900.0),
              cell("trinidad", { "server" => "trinidad" }, rps: 800.0),
              cell("puma", { "server" => "puma" }, rps: 1200.0)]
      spec = { "says" => "TorqueBox leads", "kind" => "leads", "a" => { "server" => "torquebox" }, "endpoint" => "hello" }
      against = Article::Claim.new(spec, list).answer
      assert_equal [:no, "puma"], [against.outcome, against.facts.dig("rival", "label")]
      among = Article::Claim.new(spec.merge("rivals" => [{ "server" => "trinidad" }]), list).answer
      assert_equal [:yes, 1], [among.outcome, among.facts["rivals"]], "puma was not in the article"
    end

    def test_leads_not_settled_gives_the_interval_and_figures_of_one_rival
      list = [cell("torquebox", { "server" => "torquebox" }, rps: 2300.0, spread: [3.0, 7.3, 0.05]),
              cell("trinidad", { "server" => "trinidad" }, rps: 400.0, spread: [1.9, 1.3, 0.3]),
              cell("unicorn", { "server" => "unicorn" }, rps: 3700.0, spread: [1.2, 1.2, 0.7])]
      spec = { "says" => "TorqueBox leads", "kind" => "leads", "a" => { "server" => "torquebox" }, "endpoint" => "hello" }
      a = Article::Claim.new(spec, list).answer
      assert_equal :not_settled, a.outcome
      assert_equal "unicorn", a.facts.dig("rival", "label"), "the closer of the two open comparisons"
      unicorn = Comparison.new(list[0], list[2], metric: "good_requests_per_s", errors: :ignore)
      assert_in_delta unicorn.ratio, a.interval.estimate, 1e-9, "the interval is the comparison with the rival it names"
      assert_match "(against the closest of 2 not settled, torquebox ", text(a).detail
    end

    def test_errs_holds_when_the_interval_of_the_failed_share_lies_above_it
      rejecting = cell("passenger", { "server" => "passenger" }, rps: 1400.0, requests: 1000, rejected: 860,
                                                                 spread: [0.9, 1.0, 1.1])
      spec = { "says" => "Passenger rejects most", "kind" => "errs", "share" => 0.5, "a" => { "server" => "passenger" },
               "endpoint" => "hello" }
      a = Article::Claim.new(spec, [rejecting]).answer
      assert_equal :yes, a.outcome
      assert_in_delta 0.86, a.interval.estimate, 0.001
      assert_equal :no, Article::Claim.new(spec.merge("share" => 0.95), [rejecting]).answer.outcome
      varying = Measurement.new(rejecting.cell, [800, 860, 920].each_with_index.map do |rejected, i|
        repeat(i + 1, 1400.0, 1000, 0, 10.0, 50.0, [], nil, 90.0, 50, rejected)
      end)
      open = Article::Claim.new(spec.merge("share" => 0.75), [varying]).answer
      assert_equal :not_settled, open.outcome, "86 % [71 %, 100 %] over 3 starts holds 75 %"
      assert_match(/\(the claim: more than 75 %\); about \d+ more starts? \(after 3\) would likely settle it \(\d+ s of load\)\z/,
                   text(open).detail)
    end

    def test_warm_up_has_an_interval_over_cold_starts_with_a_real_level
      slow = ->(head) { (1..8).map { |t| { "t_s" => t.to_f, "requests" => t <= 2 ? head : 1000 } } }
      spec = { "says" => "warms up", "kind" => "warms_up", "a" => { "server" => "trinidad" } }
      three = Measurement.new({ "label" => "trinidad", "server" => "trinidad", "config" => { "server" => "trinidad" },
                                "endpoint" => "hello", "concurrency" => 10, "status" => "ok", "engine" => "native" },
                              [300, 350, 280].each_with_index.map { |head, i| repeat_with_series(i + 1, slow.call(head)) })
      a = Article::Claim.new(spec, [three]).answer
      assert_equal %i[yes supported], [a.outcome, a.reason]
      assert_equal 0.95, a.interval.level
      assert_operator a.interval.high - a.interval.low, :>, 0.01, "a real interval, not [0.31, 0.31]"
      assert_operator a.interval.high, :<, 0.9
      one = Measurement.new(three.cell, three.repeats.first(1))
      assert_equal(%i[not_settled one_start], Article::Claim.new(spec, [one]).answer.then { |x| [x.outcome, x.reason] })
    end

    def test_fails_cannot_show_a_level_the_run_scaled_away_and_is_yes_when_only_that_level_failed
      spec = { "says" => "Passenger would not start with 500", "kind" => "fails", "a" => { "server" => "passenger" },
               "endpoint" => "sleep", "concurrency" => 500 }
      scaled = { "by" => "scale", "changes" => [{ "key" => "concurrency", "from" => 500, "to" => 100, "endpoint" => "sleep" }] }
      away = Article::Claim.new(spec, cells, scaled: scaled).answer
      assert_equal %i[cannot_show_here scaled_away], [away.outcome, away.reason]
      list = [cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 100),
              cell("passenger", { "server" => "passenger" }, endpoint: "sleep", concurrency: 500, status: "failed",
                                                             reason: "passenger exited before it was ready")]
      assert_equal(%i[yes failed_to_start], Article::Claim.new(spec, list).answer.then { |x| [x.outcome, x.reason] })
    end

    def test_an_unknown_kind_is_a_config_error
      assert_raises(ConfigError) { Article::Claim.new({ "says" => "x", "kind" => "wins" }, cells) }
    end

    private

    def repeat_with_series(index, series)
      result = Result.new(engine: "native", requests: 8000, duration_s: 8.0, requests_per_s: 1000.0, series: series)
      Measurement::Repeat.new(index: index, deployment: index, round: index, result: result, noise: nil, resources: {})
    end
  end
end
