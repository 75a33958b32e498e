# frozen_string_literal: true

require "test_helper"

module Rackbench
  class RepeatPolicyTest < Minitest::Test
    def sample(*start_means) = StartSample.new(start_means.map { |x| [x] })

    def test_a_quiet_first_stage_needs_no_more_starts
      policy = RepeatPolicy.new({ "deployments" => 4, "precision" => 0.05 })
      assert_equal 4, policy.starts_needed([sample(100.0, 100.5, 99.5, 100.2)], load_s_per_start: 1)
    end

    def test_a_noisy_first_stage_asks_for_more_starts_up_to_the_cap
      policy = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 10, "precision" => 0.05 })
      assert_equal 10, policy.starts_needed([sample(80.0, 120.0, 95.0, 110.0)], load_s_per_start: 1)
    end

    def test_steins_rule_gives_the_starts_whose_interval_is_within_the_target
      policy = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 100, "precision" => 0.05 })
      first = sample(100.0, 104.0, 97.0, 101.0)
      n = policy.starts_needed([first], load_s_per_start: 1)
      spread = Stats.stddev(first.start_logs)
      half = ->(starts) { StudentT.critical(0.95, 3) * spread / Math.sqrt(starts) }
      assert_operator half.call(n), :<=, Math.log(1.05)
      assert_operator half.call(n - 1), :>, Math.log(1.05), "the fewest such starts"
    end

    def test_the_block_gets_what_its_noisiest_cell_needs
      policy = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 100 })
      quiet = sample(100.0, 100.5, 99.5, 100.2)
      noisy = sample(100.0, 104.0, 97.0, 101.0)
      assert_equal policy.starts_needed([noisy], load_s_per_start: 1), policy.starts_needed([quiet, noisy], load_s_per_start: 1)
    end

    def test_the_time_cap_stops_adding_starts_but_never_cuts_the_first_stage
      policy = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 10, "max_cell_s" => 12 })
      assert_equal 6, policy.starts_needed([sample(80.0, 120.0, 95.0, 110.0)], load_s_per_start: 2)
      assert_equal 4, policy.starts_needed([sample(80.0, 120.0, 95.0, 110.0)], load_s_per_start: 10)
    end

    def test_fixed_repeats_spread_their_windows_over_the_starts
      policy = RepeatPolicy.new({ "repeats" => 5, "deployments" => 2 })
      assert_equal([3, 2, 0], [1, 2, 3].map { |e| policy.windows_in_start(e) })
      assert_nil policy.first_stage
      assert_equal "5 windows over 2 server starts", policy.to_s
    end

    def test_a_start_costs_its_windows_each_after_a_short_re_warm_up
      policy = RepeatPolicy.new({ "duration_s" => 3, "warmup_s" => 5, "windows" => 2 })
      assert_in_delta 2 * (3 + Runner::SHORT_WARMUP_S), policy.load_s_per_start, 1e-9
    end

    # A config measured over starts (one window each, paired by round).
    def config(label, rps, factors)
      repeats = factors.each_with_index.map do |f, i|
        result = Result.new(engine: "native", requests: 1000, duration_s: 1.0, requests_per_s: rps * f)
        Measurement::Repeat.new(index: i + 1, deployment: i + 1, round: i + 1, result: result, resources: {}, noise: nil)
      end
      policy = RepeatPolicy.new(SEQUENTIAL)
      Measurement.new({ "label" => label, "status" => "ok" }, repeats, **policy.interval_options)
    end

    SEQUENTIAL = { "stopping" => "sequential", "deployments" => 3, "max_deployments" => 10, "windows" => 1,
                   "duration_s" => 1, "max_cell_s" => 600 }.freeze

    def test_a_settled_comparison_needs_no_more_starts
      policy = RepeatPolicy.new(SEQUENTIAL)
      fast = config("fast", 200.0, [1.0, 1.01, 0.99])
      slow = config("slow", 100.0, [1.0, 0.99, 1.01])
      assert_empty policy.open_cells([fast, slow])
    end

    def test_an_open_comparison_keeps_both_configs_and_drops_one_settled_behind_the_runner_up
      policy = RepeatPolicy.new(SEQUENTIAL)
      a = config("a", 100.0, [1.0, 1.08, 0.93])
      b = config("b", 100.0, [1.05, 0.95, 1.0])
      far_behind = config("c", 30.0, [1.0, 1.01, 0.99])
      assert_equal %w[a b], policy.open_cells([a, b, far_behind]).map(&:label).sort
    end

    def test_a_lone_config_stops_once_its_interval_is_within_the_precision
      policy = RepeatPolicy.new(SEQUENTIAL)
      assert_empty policy.open_cells([config("quiet", 100.0, [1.0, 1.001, 0.999])])
      refute_empty policy.open_cells([config("noisy", 100.0, [1.0, 1.3, 0.7])])
    end

    def test_a_sequential_policy_caps_its_starts_by_time_and_names_its_design
      policy = RepeatPolicy.new(SEQUENTIAL.merge("max_cell_s" => 5, "warmup_s" => 0))
      assert_equal 5, policy.max_starts, "one 1 s window a start: 5 s of load allow 5 starts"
      assert_equal [3, 5], [policy.design.first_look, policy.design.max_starts]
      assert_match(/looked at after 3 and every start after/, policy.to_s)
    end

    # Two configs planned from a suite whose one claim compares them; the
    # look is at one of them (its block), the other is in a block of its own.
    def claimed_plan
      claim = { "says" => "Thin beats Unicorn", "a" => { "server" => "thin" }, "b" => { "server" => "unicorn" },
                "endpoint" => "/hello", "concurrency" => 2 }
      suite = Suite.load(write_suite({ "servers" => [{ "server" => "thin" }, { "server" => "unicorn", "workers" => 2 }],
                                       "order" => "sequential", "article" => { "title" => "t", "claims" => [claim] } }))
      [suite, Plan.new(suite)]
    end

    def test_a_look_that_follows_claims_keeps_a_cell_while_its_claim_on_another_blocks_cell_is_open
      suite, plan = claimed_plan
      thin, unicorn = plan.cells
      policy = RepeatPolicy.new(SEQUENTIAL, questions: Article::ClaimLooks.for(suite))
      close = { thin.index => [1.0, 1.05, 0.95], unicorn.index => [1.02, 0.97, 1.01] }
      repeats_of = ->(cell) { config("x", 100.0, close[cell.index]).repeats }
      assert_empty policy.settled_cells([thin], repeats_of, others: [unicorn]), "its claim is open"
      apart = ->(cell) { config("x", 100.0 * (cell == thin ? 3 : 1), close[cell.index]).repeats }
      assert_equal [thin], policy.settled_cells([thin], apart, others: [unicorn]), "settled: thin is three times as fast"
      assert_empty RepeatPolicy.new(SEQUENTIAL).settled_cells([thin], apart), "the block's rule: alone, until within ±5 %"
      assert_match(/until each of the article's claims is settled/, policy.to_s)
    end

    def test_a_run_stored_without_a_stopping_rule_is_read_as_steins
      policy = RepeatPolicy.new({ "deployments" => 4 })
      refute policy.sequential?
      assert_nil policy.design
      assert_equal 4, policy.first_stage
    end

    def test_the_load_cap_uses_the_suites_own_windows_when_none_is_given
      noisy = sample(80.0, 120.0, 95.0, 110.0)
      long = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 10, "max_cell_s" => 60, "duration_s" => 10 })
      short = RepeatPolicy.new({ "deployments" => 4, "max_deployments" => 10, "max_cell_s" => 60, "duration_s" => 1 })
      assert_equal 4, long.starts_needed([noisy]), "two 10 s windows a start: 60 s allow only the first stage's 4 starts"
      assert_equal 10, short.starts_needed([noisy])
    end
  end
end
