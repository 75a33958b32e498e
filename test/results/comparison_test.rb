# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"

module Rackbench
  class ComparisonTest < Minitest::Test
    include SeedFixtures

    # One window per server start, each start at rps * factor; rounds pair
    # the configs' starts side by side.
    def measure(label, rps, factors, errors: 0)
      repeats = factors.each_with_index.map do |f, i|
        result = Result.new(engine: "native", requests: 1000, duration_s: 1000 / (rps * f), requests_per_s: rps * f,
                            errors: { "status" => errors }, histogram: [[(10_000 / f).round, 1000]])
        Measurement::Repeat.new(index: i + 1, deployment: i + 1, round: i + 1, result: result, resources: {}, noise: nil)
      end
      Measurement.new({ "label" => label, "status" => "ok" }, repeats)
    end

    # Ratio windows (ratio: duet) after the windows in turns, one a start,
    # each at rps * factor, in rounds of their own; busy: the share of the
    # window the server was runnable (DuetBusy).
    def with_ratio(measurement, rps, factors, busy:, instant: 1_000)
      ratio = factors.each_with_index.map do |f, i|
        result = Result.new(engine: "native", requests: 500, duration_s: 500 / (rps * f), requests_per_s: rps * f,
                            errors: {}, histogram: [[20_000, 500]])
        Measurement::Repeat.new(index: 100 + i, deployment: i + 1, round: 100 + i, result: result,
                                resources: { "cpu_s" => busy, "cpu_wait_s" => 0.0, "sampled_s" => 1.0 },
                                noise: { "window" => Measurement::RATIO_WINDOW, "duet" => "cgroup v2",
                                         "start_at" => instant + i })
      end
      Measurement.new(measurement.cell, measurement.repeats + ratio)
    end

    def test_ratio_windows_of_busy_servers_give_the_ratio_and_no_figure_reads_them
      a = with_ratio(measure("a", 100.0, [0.7, 1.3, 0.9, 1.2, 0.8]), 50.0, [1.0, 1.01, 0.99, 1.0, 1.0], busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.3, 0.8, 1.1, 0.8, 1.2]), 50.0, [1.0, 1.0, 1.01, 0.99, 1.0], busy: 0.97)
      assert_equal 5, a.repeats.size, "the figures read the windows in turns only"
      assert_in_delta 100.0, a.good_requests_per_s, 15.0, "a figure in turns, not the duet's half share"
      c = Comparison.new(a, b)
      assert c.ratio_windows?
      assert_equal :equivalent, c.verdict, c.to_s
      assert_match(/\Aa and b equivalent within ±5\.0 % \(1\.00x, 90 % \[0\.9\d\d, 1\.0\d\d\] in duet windows\)\z/, c.to_s)
      assert_equal "duet windows", c.to_h["ratio_from"]
      turns = Comparison.new(measure("a", 100.0, [0.7, 1.3, 0.9, 1.2, 0.8]), measure("b", 100.0, [1.3, 0.8, 1.1, 0.8, 1.2]))
      assert_equal :inconclusive, turns.verdict, "the same windows in turns alone settle nothing"
    end

    def test_ratio_windows_of_a_server_that_idled_are_not_read
      a = with_ratio(measure("a", 100.0, [0.7, 1.3, 0.9, 1.2, 0.8]), 50.0, [1.0, 1.01, 0.99, 1.0, 1.0], busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.3, 0.8, 1.1, 0.8, 1.2]), 50.0, [1.0, 1.0, 1.01, 0.99, 1.0], busy: 0.40)
      c = Comparison.new(a, b)
      refute c.ratio_windows?, "an idle server leaves its share to its partner: not a ratio of costs"
      assert_equal :inconclusive, c.verdict
      refute_includes c.to_s, "duet"
      assert_nil c.to_h["ratio_from"]
    end

    # A duet window whose load generator was starved (Window marks it) is
    # one where a server idled while its partner took the CPU: left out.
    def test_a_ratio_window_a_starved_load_generator_spoiled_is_left_out_of_the_ratio
      a = with_ratio(measure("a", 100.0, [0.7, 1.3, 0.9, 1.2, 0.8]), 50.0, [1.0, 1.01, 0.99, 1.0, 2.0], busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.3, 0.8, 1.1, 0.8, 1.2]), 50.0, [1.0, 1.0, 1.01, 0.99, 1.0], busy: 0.97)
      assert_equal :inconclusive, Comparison.new(a, b).verdict, "one window at twice its partner's rate"
      a.ratio_repeats.last.noise["starved_in_duet"] = true
      c = Comparison.new(a, b)
      assert_equal 4, c.starts
      assert_equal :equivalent, c.verdict, c.to_s
    end

    # Ratio windows that stopped early (a third config of the block idled)
    # are fewer than the starts in turns: the turns' starts are read.
    def test_fewer_ratio_windows_than_starts_in_turns_are_not_read_instead_of_them
      a = with_ratio(measure("a", 100.0, [1.0, 1.01, 0.99, 1.0, 1.0]), 50.0, [1.0, 1.3], busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.0, 1.0, 1.01, 0.99, 1.0]), 50.0, [1.0, 1.0], busy: 0.97)
      c = Comparison.new(a, b)
      refute c.ratio_windows?
      assert_equal 5, c.starts
      assert_equal :equivalent, c.verdict, c.to_s
    end

    # Rounds are numbered per block: a round of the same number in another
    # block (a claim comparing two endpoints) is no duet of these two.
    def test_ratio_windows_pair_only_when_loaded_at_one_instant
      a = with_ratio(measure("a", 100.0, [1.0, 1.01, 0.99, 1.0, 1.0]), 50.0, [1.0] * 5, busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.0, 1.0, 1.01, 0.99, 1.0]), 50.0, [1.0] * 5, busy: 0.97, instant: 9_000)
      refute Comparison.new(a, b).ratio_windows?
    end

    def test_ratio_windows_never_pair_across_runs_nor_give_latency_verdicts
      a = with_ratio(measure("a", 100.0, [0.7, 1.3, 0.9, 1.2, 0.8]), 50.0, [1.0, 1.01, 0.99, 1.0, 1.0], busy: 0.98)
      b = with_ratio(measure("b", 100.0, [1.3, 0.8, 1.1, 0.8, 1.2]), 50.0, [1.0, 1.0, 1.01, 0.99, 1.0], busy: 0.97)
      refute Comparison.new(a, b, paired: false).ratio_windows?
      refute Comparison.new(a, b, metric: "latency_p99_ms").ratio_windows?
    end

    def test_a_clear_difference_names_the_faster_with_its_ratio_and_interval
      c = Comparison.new(measure("puma", 200.0, [0.98, 1.0, 1.02, 1.0]), measure("thin", 100.0, [1.0, 0.99, 1.01, 1.0]))
      assert c.paired?
      assert_equal :a_better, c.verdict
      assert_match(/\Apuma faster, 2\.00x \[1\.9\d, 2\.0\d\]\z/, c.to_s)
    end

    def test_the_slower_first_reads_the_same_way_round
      c = Comparison.new(measure("thin", 100.0, [1.0, 0.99, 1.01, 1.0]), measure("puma", 200.0, [0.98, 1.0, 1.02, 1.0]))
      assert_equal :b_better, c.verdict
      assert_match(/\Apuma faster, 2\.00x/, c.to_s)
    end

    def test_a_tight_interval_around_one_is_equivalent_within_the_margin
      c = Comparison.new(measure("a", 100.0, [1.0, 1.01, 0.99, 1.0, 1.005]), measure("b", 100.0, [1.0, 1.0, 1.0, 1.01, 1.0]))
      assert_equal :equivalent, c.verdict
      assert_match(/\Aa and b equivalent within ±5\.0 % \(1\.00x, 90 % \[0\.9\d\d, 1\.0\d\d\]\)\z/, c.to_s)
    end

    # Schuirmann's two one-sided tests at 5 % each read the 90 % interval.
    def test_equivalence_reads_the_interval_at_one_minus_twice_alpha
      c = Comparison.new(measure("a", 100.0, [1.0, 1.01, 0.99, 1.0, 1.005]), measure("b", 100.0, [1.0, 1.0, 1.0, 1.01, 1.0]))
      assert_in_delta 0.90, c.equivalence_ci.level, 1e-9
      assert_operator c.equivalence_ci.high - c.equivalence_ci.low, :<, c.ci.high - c.ci.low
    end

    def test_a_small_but_certain_difference_within_the_margin_is_equivalent_and_says_its_side
      c = Comparison.new(measure("a", 102.0, [1.0, 1.001, 0.999, 1.0]), measure("b", 100.0, [1.0, 1.0, 1.0, 1.0]))
      assert_operator c.ci.low, :>, 1, "the interval excludes 1"
      assert_equal :equivalent, c.verdict, "2 % is inside ±5 %: too small to matter"
      assert_match(/equivalent within ±5\.0 % \(1\.02x, 90 % \[1\.0\d\d, 1\.0\d\d\]; a faster by 2\.0 %\)\z/, c.to_s)
      narrow = Comparison.new(c.a, c.b, margin: 0.01)
      refute narrow.within_margin?
      assert_equal :a_better, narrow.verdict
      assert_match(/\Aa faster, 1\.02x \[1\.0\d, 1\.0\d\]\z/, narrow.to_s, "beyond a 1 % margin: no 'at least' note")
    end

    def test_a_difference_whose_interval_reaches_into_the_margin_says_how_small_it_may_be
      c = Comparison.new(measure("a", 106.0, [1.0, 1.02, 0.98, 1.0]), measure("b", 100.0, [1.0, 1.0, 1.0, 1.0]))
      assert_equal :a_better, c.verdict
      assert_match(/\Aa faster, 1\.06x \[1\.0\d, 1\.\d\d\] \(by at least \d\.\d %\)\z/, c.to_s)
    end

    def test_a_wide_interval_around_one_is_inconclusive_and_says_how_many_more_starts_would_settle_it
      c = Comparison.new(measure("a", 100.0, [0.9, 1.1, 1.0, 0.95]), measure("b", 100.0, [1.05, 0.92, 1.0, 1.08]))
      assert_equal :inconclusive, c.verdict
      assert_operator c.more_starts, :>, 0
      assert_match(/\Ainconclusive between a and b: 0\.\d\dx \[\d\.\d\d, \d\.\d\d\]; /, c.to_s)
      assert_match(/; about \d+ more starts would settle ±5\.0 %\z/, c.to_s) if c.reachable_more_starts
    end

    def test_more_starts_out_of_reach_are_not_promised_and_the_spread_is_named_instead
      c = Comparison.new(measure("a", 100.0, [0.7, 1.3, 1.0, 0.8]), measure("b", 100.0, [1.25, 0.75, 1.0, 1.2]))
      assert_equal :inconclusive, c.verdict
      assert_operator c.more_starts, :>, Comparison::REACH * c.starts
      assert_nil c.reachable_more_starts
      assert_match(/; the ratio's spread between starts here is \d+\.\d %, too wide to settle ±5\.0 % within 12 more starts: /,
                   c.to_s)
      assert c.to_s.end_with?("see rackbench calibrate, or measure CPU-bound configs' ratio as a duet (--ratio duet)")
    end

    def test_a_duet_out_of_reach_names_calibrate_only
      duet = [measure("a", 100.0, [0.7, 1.3, 1.0, 0.8]), measure("b", 100.0, [1.25, 0.75, 1.0, 1.2])]
      duet.each { |m| m.repeats.each { |r| r.noise = { "duet" => "cgroup v1 cpu.shares" } } }
      assert Comparison.new(*duet).to_s.end_with?("more starts: see rackbench calibrate")
    end

    def test_more_starts_within_reach_are_named
      c = Comparison.new(measure("a", 100.0, [0.975, 1.025, 1.0, 0.985]), measure("b", 100.0, [1.025, 0.975, 1.0, 1.015]))
      assert_equal :inconclusive, c.verdict
      assert_equal c.more_starts, c.reachable_more_starts
      assert_match(/; about \d+ more starts? would settle ±5\.0 %\z/, c.to_s)
    end

    # Three starts of a 3 % spread: t with 2 degrees of freedom (4.30) makes
    # the interval wide, but one more start (t 3.18 over 4) fits ±5 %.
    def test_more_starts_count_the_critical_value_falling_with_the_starts
      c = Comparison.new(measure("a", 100.0, [1.0, 1.03, 0.97]), measure("b", 100.0, [1.0, 1.0, 1.0]))
      assert_equal :inconclusive, c.verdict
      assert_equal 1, c.more_starts, "the spread is narrow; only its 2 degrees of freedom kept the interval wide"
    end

    def test_more_starts_shrink_the_interval_and_settle_a_verdict
      few = Comparison.new(measure("a", 104.0, [0.97, 1.03, 1.0]), measure("b", 100.0, [1.02, 0.98, 1.0]))
      many = Comparison.new(measure("a", 104.0, [0.97, 1.03, 1.0] * 4), measure("b", 100.0, [1.02, 0.98, 1.0] * 4))
      assert_operator many.ci.high - many.ci.low, :<, few.ci.high - few.ci.low
      assert_equal :a_better, many.verdict
    end

    def test_latency_compares_the_other_way_round
      fast = cell("a", { "server" => "a" }, mean_ms: 5.0)
      slow = cell("b", { "server" => "b" }, mean_ms: 10.0)
      c = Comparison.new(fast, slow, metric: "latency_mean_ms")
      assert_equal :a_better, c.verdict
      assert_in_delta 2.0, c.ratio, 1e-9
    end

    def test_a_latency_percentile_ratio_is_the_ratio_of_the_figures_and_lies_inside_its_interval
      a = measure("a", 100.0, [1.0, 1.1, 0.9, 1.05])
      b = measure("b", 100.0, [0.5, 0.55, 0.5, 0.45])
      c = Comparison.new(a, b, metric: "latency_p99_ms")
      assert_in_delta b.latency_ms(99) / a.latency_ms(99), c.ratio, 1e-9
      assert c.ci.cover?(c.ratio)
      assert_equal :a_better, c.verdict
      assert_match(/\Aa lower p99, /, c.to_s)
    end

    def test_a_side_with_more_than_one_percent_errors_gets_no_speed_verdict
      c = Comparison.new(measure("fails-fast", 300.0, [1.0, 1.0, 1.0], errors: 50), measure("ok", 100.0, [1.0, 1.01, 0.99]))
      assert_equal :errors, c.verdict
      assert_match "no speed verdict between fails-fast and ok: requests failed (fails-fast 5.0 %)", c.to_s
    end

    def test_throughput_counts_good_responses_only
      c = Comparison.new(measure("a", 100.0, [1.0, 1.0, 1.0], errors: 5), measure("b", 100.0, [1.0, 1.0, 1.0]))
      assert_in_delta 0.995, c.ratio, 1e-9, "5 of 1000 responses of a were errors"
    end

    def test_one_start_a_side_gives_a_ratio_but_no_verdict
      c = Comparison.new(measure("puma", 200.0, [1.0]), measure("thin", 100.0, [1.0]))
      assert_equal :no_interval, c.verdict
      assert_equal "puma vs thin: 2.00x (one start each: no interval, so no verdict)", c.to_s
    end

    def test_a_failed_cell_is_not_compared
      failed = cell("x", { "server" => "x" }, status: "failed", reason: "crashed")
      assert_equal :not_measured, Comparison.new(failed, measure("a", 1.0, [1.0])).verdict
    end
  end
end
