# frozen_string_literal: true

require "test_helper"

module Rackbench
  # How many starts a block is expected to take before anything is measured:
  # the run's own design, simulated on comparisons of unknown truth.
  class ExpectedStartsTest < Minitest::Test
    QUICK = { "repeats" => "auto", "stopping" => "sequential", "deployments" => 3, "windows" => 1, "max_deployments" => 8,
              "max_cell_s" => 100, "duration_s" => 2, "warmup_s" => 1 }.freeze

    def expected(settings = QUICK, **options) = ExpectedStarts.new(settings, trials: 40, **options)

    def test_every_block_takes_its_first_looks_starts_and_none_goes_past_its_cap
      e = expected
      assert_equal([1.0, 1.0, 1.0], (1..3).map { |epoch| e.open_share(epoch) })
      assert_in_delta 0.0, e.open_share(9), 1e-9
      shares = (3..8).map { |epoch| e.open_share(epoch) }
      assert_equal shares.sort.reverse, shares, "fewer blocks open at each later start"
      assert_operator e.mean, :>, 3
      assert_operator e.mean, :<, 8
    end

    def test_a_design_is_simulated_once_a_process_and_another_design_apart
      first = expected(ratios: [1.5]).send(:counts)
      assert_same first, expected(QUICK.dup, ratios: [1.5]).send(:counts), "an equal design reads the first simulation"
      refute_same first, expected(QUICK.merge("max_deployments" => 6), ratios: [1.5]).send(:counts)
      assert_operator expected(QUICK.merge("max_deployments" => 6), ratios: [1.5]).send(:counts).max, :<=, 6
      refute_same first, expected(ratios: [1.5], trials: 41).send(:counts)
    end

    def test_configs_far_apart_settle_at_the_first_look_and_identical_ones_mostly_run_to_the_cap
      apart = expected(ratios: [3.0])
      alike = expected(ratios: [1.0])
      assert_in_delta 3.0, apart.mean, 0.2
      assert_in_delta 0.0, apart.open_share(5), 0.05
      assert_operator alike.mean, :>, 7
      assert_operator alike.open_share(8), :>, 0.8
    end

    def test_a_noisier_machine_keeps_blocks_open_longer
      quiet = expected
      busy = expected(noise: { within_cv: 0.2, between_cv: 0.2 })
      assert_operator busy.mean, :>, quiet.mean + 0.5
      assert_operator busy.open_share(6), :>, quiet.open_share(6)
    end

    def test_the_cap_is_the_designs_own
      e = expected(QUICK.merge("max_deployments" => 5), ratios: [1.0])
      assert_operator e.open_share(5), :>, 0.8
      assert_in_delta 0.0, e.open_share(6), 1e-9
    end

    def test_a_fixed_number_of_starts_is_taken_as_it_is
      e = expected(QUICK.merge("repeats" => 4, "deployments" => 2))
      assert_in_delta 2.0, e.mean, 1e-9
      assert_in_delta 1.0, e.open_share(2), 1e-9
      assert_in_delta 0.0, e.open_share(3), 1e-9
    end
  end
end
