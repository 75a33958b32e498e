# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"

module Rackbench
  class ComparisonTest < Minitest::Test
    include SeedFixtures

    def measure(label, rps, spread) = cell(label, { "server" => label }, rps: rps, spread: spread)

    def test_a_clear_difference_names_the_faster_with_its_ratio_and_interval
      c = Comparison.new(measure("puma", 200.0, [0.98, 1.0, 1.02]), measure("thin", 100.0, [1.0, 0.99, 1.01]))
      assert c.paired?
      assert_equal :a_better, c.verdict
      assert_match(/\Apuma faster, 2\.00x \[1\.9\d, 2\.0\d\]\z/, c.to_s)
    end

    def test_the_slower_first_reads_the_same_way_round
      c = Comparison.new(measure("thin", 100.0, [1.0, 0.99, 1.01]), measure("puma", 200.0, [0.98, 1.0, 1.02]))
      assert_equal :b_better, c.verdict
      assert_match(/\Apuma faster, 2\.00x/, c.to_s)
    end

    def test_overlapping_measurements_give_no_difference_with_its_reach
      c = Comparison.new(measure("a", 100.0, [0.9, 1.1, 1.0, 0.95]), measure("b", 100.0, [1.05, 0.92, 1.0, 1.08]))
      assert_equal :no_difference, c.verdict
      assert_match(/\Ano difference detected between a and b \(within ±\d+\.\d %/, c.to_s)
    end

    def test_latency_compares_the_other_way_round
      fast = cell("a", { "server" => "a" }, mean_ms: 5.0)
      slow = cell("b", { "server" => "b" }, mean_ms: 10.0)
      c = Comparison.new(fast, slow, metric: "latency_mean_ms")
      assert_equal :a_better, c.verdict
      assert_in_delta 2.0, c.ratio, 1e-9
    end

    def test_one_repeat_a_side_gives_a_ratio_but_no_verdict
      c = Comparison.new(measure("puma", 200.0, [1.0]), measure("thin", 100.0, [1.0]))
      assert_equal :no_interval, c.verdict
      assert_equal "puma vs thin: 2.00x (one repeat: no CI, so no verdict)", c.to_s
    end

    def test_a_failed_cell_is_not_compared
      failed = cell("x", { "server" => "x" }, status: "failed", reason: "crashed")
      assert_equal :not_measured, Comparison.new(failed, measure("a", 1.0, [1.0])).verdict
    end
  end
end
