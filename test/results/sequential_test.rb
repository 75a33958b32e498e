# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A sequential design's boundaries are found once from seeded paths; these
  # tests draw fresh paths (another seed) and count how often any look's
  # interval misses the truth: at most the design's 1 - level, give or take
  # the paths' own sampling error.
  class SequentialTest < Minitest::Test
    PATHS = 8_000
    TOLERANCE = 0.008 # about three standard errors of a 5 % share at 8,000 paths

    def test_pocock_looks_after_every_start_miss_the_truth_at_most_five_percent_of_the_time
      design = Sequential.for(first_look: 3, max_starts: 20)
      assert_in_delta 0.05, missed_share(design), TOLERANCE
    end

    def test_obrien_fleming_keeps_the_same_level_and_spends_less_at_the_first_look
      pocock = Sequential.for(first_look: 3, max_starts: 20)
      fleming = Sequential.for(first_look: 3, max_starts: 20, spending: :obrien_fleming)
      assert_in_delta 0.05, missed_share(fleming), TOLERANCE
      assert_operator fleming.critical(3), :>, pocock.critical(3), "O'Brien-Fleming is stricter at the first look"
      assert_operator fleming.critical(20), :<, pocock.critical(20), "and laxer at the last"
    end

    def test_the_equivalence_looks_have_their_own_spending_at_the_equivalence_level
      design = Sequential.for(first_look: 3, max_starts: 20, spending: :pocock, equivalence_spending: :obrien_fleming)
      equivalence = design.for_equivalence(0.90)
      assert_equal :obrien_fleming, equivalence.spending
      assert_in_delta 0.90, equivalence.level, 1e-12
      assert_in_delta 0.10, missed_share(equivalence), 0.01
      assert_equal :pocock, design.at_level(0.90).spending, "another level alone keeps the spending"
    end

    def test_a_design_without_an_equivalence_spending_spends_both_alike
      design = Sequential.for(first_look: 3, max_starts: 12, spending: :constant)
      assert_equal :constant, design.for_equivalence(0.90).spending
    end

    def test_a_look_beyond_the_design_keeps_its_last_boundary_and_an_unknown_spending_is_refused
      design = Sequential.for(first_look: 3, max_starts: 10)
      assert_in_delta design.nominal_level(10), design.nominal_level(14), 1e-12
      error = assert_raises(ArgumentError) { Sequential.new(first_look: 3, max_starts: 10, equivalence_spending: :haybittle) }
      assert_includes error.message, ":haybittle"
    end

    private

    # The share of fresh standard normal paths in which the Student t
    # statistic crosses the design's critical value at any look.
    def missed_share(design)
      rng = Random.new(424_242)
      missed = Array.new(PATHS) do
        draws = Array.new(design.max_starts) { Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand) }
        design.looks.any? { |n| t_statistic(draws.first(n)).abs > design.critical(n) }
      end
      missed.count(true).fdiv(PATHS)
    end

    def t_statistic(values)
      mean = Stats.mean(values)
      mean / (Stats.stddev(values) / Math.sqrt(values.size))
    end
  end
end
