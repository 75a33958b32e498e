# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Does a "95 %" interval cover the truth 95 % of the time? Synthetic runs
  # of known truth (Simulation: log-normal windows nested in server starts,
  # with drift shared by configs started side by side), measured and judged
  # by the product's own code, with fixed seeds so the outcome is repeatable.
  # A method whose coverage falls below the stated level minus TOLERANCE
  # fails here; the old percentile bootstrap of a median over 3 repeats is
  # checked to fail the same harness, so the harness can tell.
  class CoverageTest < Minitest::Test
    LEVEL = 0.95
    TOLERANCE = 0.03 # about three standard errors of a share at 600 trials
    TRIALS = 600
    NOISE = { within_cv: 0.10, between_cv: 0.05, common_cv: 0.05 }.freeze
    # Trials of a contrast the harness must show, where the share lies far
    # from its bound: looks without spending call identical configs
    # different about 0.2-0.25 of the time against a bound of 0.08, windows
    # in turns alone call them equivalent never against 0.5 (seed 11: 0.205
    # and 0 at 200 trials, 0.245 and 0 at 600). Such a simulation runs most
    # trials to max_deployments, so it is the file's costliest.
    CONTRAST_TRIALS = 200

    def simulate(settings, ratio: 1.0, noise: NOISE, seed: 11, trials: TRIALS)
      Simulation.new(**noise, settings: settings, seed: seed).run(trials: trials, ratio: ratio)
    end

    def test_fixed_starts_cover_the_truth_at_their_stated_level_with_3_4_and_6_starts
      [3, 4, 6].each do |starts|
        result = simulate({ "repeats" => starts * 2, "deployments" => starts })
        assert_operator result["coverage"], :>=, LEVEL - TOLERANCE, "#{starts} starts of 2 windows: #{result}"
        assert_operator result["ratio_coverage"], :>=, LEVEL - TOLERANCE, "#{starts} starts, the ratio: #{result}"
      end
    end

    # Stein's two-stage rule (how runs were measured before the sequential design).
    def test_steins_adaptive_starts_keep_the_level_and_identical_configs_are_rarely_called_different
      result = simulate({ "precision" => 0.02, "stopping" => "stein" })
      assert_operator result["mean_starts"], :>, RepeatPolicy.new({}).starts, "the rule asked for more starts"
      assert_operator result["coverage"], :>=, 0.93, result.to_s
      assert_operator result["false_verdicts"], :<=, (1 - LEVEL) + TOLERANCE, result.to_s
    end

    # The sequential design looks after every start and stops when the
    # comparison is settled: its repeated intervals keep the level whenever
    # it stopped. An interval that ignores the looks (every start's spread
    # alone, Student t at 95 % at each look: rule :all_starts) calls
    # identical configs different far more often, and the harness sees it.
    def test_sequential_looks_keep_the_level_and_the_harness_catches_looks_without_spending
      result = simulate({})
      assert_operator result["mean_starts"], :>, RepeatPolicy.new({ "stopping" => "sequential" }).starts
      assert_operator result["coverage"], :>=, 0.93, result.to_s
      assert_operator result["ratio_coverage"], :>=, LEVEL - TOLERANCE, result.to_s
      assert_operator result["false_verdicts"], :<=, (1 - LEVEL) + TOLERANCE, result.to_s
      unspent = Simulation.new(**NOISE, seed: 11, rule: :all_starts).run(trials: CONTRAST_TRIALS)
      assert_operator unspent["false_verdicts"], :>, (1 - LEVEL) + TOLERANCE, "looks without spending: #{unspent}"
    end

    def test_a_quiet_cell_stops_early_yet_keeps_its_level
      result = simulate({ "precision" => 0.05 }, noise: { within_cv: 0.02, between_cv: 0.01 })
      assert_operator result["mean_starts"], :<, RepeatPolicy.new({ "stopping" => "sequential" }).max_starts
      assert_operator result["coverage"], :>=, 0.93, result.to_s
    end

    # Nearly always: the first look's nominal level is strict (it pays for
    # every later look) and Student t on 2 degrees of freedom is wide, so a
    # first stage with a wide spread by chance looks once more.
    def test_a_twofold_difference_settles_at_the_first_look
      result = simulate({}, ratio: 2.0, noise: { within_cv: 0.05, between_cv: 0.03 })
      assert_operator result["mean_starts"], :<=, RepeatPolicy.new({ "stopping" => "sequential" }).starts + 0.03, result.to_s
      assert_in_delta 1.0, result["verdicts"]["a_better"], 1e-9
    end

    # Another process takes the server's CPU for a window now and then (5 %
    # of windows keep 10-80 % of their rate): Stein's first-stage spread alone
    # misses a starved window in a later start; the wider rule does not, nor
    # do the sequential design's repeated intervals.
    def test_windows_starved_of_cpu_do_not_make_identical_configs_look_different
      quiet = { within_cv: 0.05, between_cv: 0.03, starved: 0.05 }
      sequential = Simulation.new(**quiet, seed: 11).run(trials: TRIALS)
      assert_operator sequential["false_verdicts"], :<=, (1 - LEVEL) + TOLERANCE, sequential.to_s
      stein_settings = { "stopping" => "stein" }
      wider = Simulation.new(**quiet, seed: 11, settings: stein_settings).run(trials: TRIALS)
      stein = Simulation.new(**quiet, seed: 11, settings: stein_settings, rule: :first_stage).run(trials: TRIALS)
      assert_operator wider["false_verdicts"], :<=, (1 - LEVEL) + TOLERANCE, wider.to_s
      assert_operator wider["ratio_coverage"], :>=, LEVEL - TOLERANCE, wider.to_s
      assert_operator stein["false_verdicts"], :>, (1 - LEVEL) + TOLERANCE, "the harness can tell: #{stein}"
    end

    # Equivalence is a claim too: two configs truly 5 % apart (the margin)
    # are called "equivalent" at most 5 % of the time, whenever the run
    # stopped; identical configs on a quiet machine usually are.
    def test_configs_a_margin_apart_are_rarely_called_equivalent_and_identical_ones_usually_are
      quiet = { within_cv: 0.05, between_cv: 0.03 }
      apart = simulate({}, ratio: 1.05, noise: quiet)
      assert_operator apart["verdicts"].fetch("equivalent", 0), :<=, (1 - LEVEL) + TOLERANCE, apart.to_s
      same = simulate({}, noise: quiet)
      assert_operator same["verdicts"].fetch("equivalent", 0), :>=, 0.7, same.to_s
    end

    # ratio: duet (the default): a ratio window a start decides, one window
    # in turns a first-stage start gives the figures. On a busy machine's
    # windows in turns (20 % between windows) with duet windows 3 % apart,
    # the ratio's interval keeps its level, identical configs are rarely
    # called different and usually equivalent, and configs a margin apart
    # are rarely called equivalent.
    def test_duet_windows_keep_the_level_and_settle_identical_configs_as_equivalent
      busy = { within_cv: 0.20, between_cv: 0.02, duet_cv: 0.03 }
      same = simulate({}, noise: busy)
      assert_operator same["ratio_coverage"], :>=, LEVEL - TOLERANCE, same.to_s
      assert_operator same["false_verdicts"], :<=, (1 - LEVEL) + TOLERANCE, same.to_s
      assert_operator same["verdicts"].fetch("equivalent", 0), :>=, 0.8, same.to_s
      apart = simulate({}, ratio: 1.05, noise: busy)
      assert_operator apart["verdicts"].fetch("equivalent", 0), :<=, (1 - LEVEL) + TOLERANCE, apart.to_s
      in_turns = simulate({}, noise: busy.except(:duet_cv), trials: CONTRAST_TRIALS)
      assert_operator in_turns["verdicts"].fetch("equivalent", 0), :<, 0.5, "the same windows in turns alone: #{in_turns}"
    end

    def test_a_real_difference_is_found_and_named_the_right_way_round
      result = simulate({}, ratio: 1.3, noise: { within_cv: 0.05, between_cv: 0.03 })
      assert_operator result["verdicts"]["a_better"], :>=, 0.9, result.to_s
      assert_operator result["false_verdicts"], :<=, 0.01, result.to_s
    end

    def test_the_harness_catches_the_percentile_bootstrap_of_a_median_over_three_repeats
      rng = Random.new(3)
      covered = Array.new(TRIALS) do
        values = Array.new(3) { 100 * Math.exp(0.1 * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)) }
        old_style_bootstrap(values).cover?(100.0)
      end
      assert_operator covered.count(true).fdiv(TRIALS), :<, LEVEL - TOLERANCE, "[min, max] of 3 covers about 75 %"
    end

    private

    # The percentile bootstrap of a median that rackbench used before it
    # resampled starts: with 3 values its interval is [min, max].
    def old_style_bootstrap(values)
      rng = Random.new(1)
      draws = Array.new(400) { Stats.median(Array.new(values.size) { values[rng.rand(values.size)] }) }.sort
      Stats::Interval.new(Stats.quantile(draws, 0.025), Stats.quantile(draws, 0.975), Stats.median(values), LEVEL)
    end
  end
end
