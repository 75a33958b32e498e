# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Interference: the share of an A/A pair's window noise that other
  # processes' CPU explains, from each window's own noise record.
  class InterferenceTest < Minitest::Test
    # Windows of 100 req/s times exp(noise - share): the more of the CPU
    # another process takes, the less throughput (log-linear, as the fit is).
    def cell(label, shares, noise)
      repeats = shares.each_with_index.map do |share, i|
        rate = 100 * Math.exp(noise[i] - share)
        result = Result.new(engine: "native", requests: rate.round, duration_s: 1.0, requests_per_s: rate)
        Measurement::Repeat.new(index: i + 1, deployment: (i / 3) + 1, round: i + 1, result: result, resources: {},
                                noise: { "other_cpu_share" => share })
      end
      Measurement.new({ "label" => label, "status" => "ok" }, repeats)
    end

    def draws(seed, count, spread)
      rng = Random.new(seed)
      Array.new(count) { spread * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand) }
    end

    def shares(seed, count)
      rng = Random.new(seed)
      Array.new(count) { rng.rand * 0.6 }
    end

    def test_noise_that_follows_other_processes_share_is_explained_and_the_rest_is_left
      a = cell("A", shares(1, 30), draws(2, 30, 0.02))
      b = cell("B", shares(3, 30), draws(4, 30, 0.02))
      interference = Interference.new(a, b)
      assert interference.estimable?
      assert_operator interference.explained_share, :>, 0.8, interference.to_h.to_s
      assert_in_delta 0.028, interference.unexplained_cv, 0.012, "sqrt 2 x 2 % of windows' own noise is left"
      assert_operator interference.slope, :<, 0, "more of the CPU taken, less throughput"
    end

    def test_noise_unrelated_to_other_processes_is_not_explained
      quiet = Array.new(30, 0.1)
      interference = Interference.new(cell("A", quiet, draws(5, 30, 0.1)), cell("B", quiet, draws(6, 30, 0.1)))
      refute interference.estimable?, "the same share in every window: nothing to regress on"
      noisy = Interference.new(cell("A", shares(7, 30), draws(8, 30, 0.1)), cell("B", shares(7, 30), draws(9, 30, 0.1)))
      assert_nil noisy.explained_share, "both windows of a round saw the same share: no difference to regress on"
    end

    def test_windows_without_a_noise_record_are_left_out_and_too_few_rounds_estimate_nothing
      a = cell("A", shares(1, 4), draws(2, 4, 0.02))
      b = cell("B", shares(3, 4), draws(4, 4, 0.02))
      refute Interference.new(a, b).estimable?
      assert_nil Interference.new(a, b).spread_cv
    end
  end
end
