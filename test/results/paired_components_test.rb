# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The paired design's variance components on synthetic A/A pairs of known
  # components (window noise shared by the round included): each
  # component's interval covers its truth at least 90 % of the time, and a
  # component that is truly zero is said to be small, not exactly zero.
  class PairedComponentsTest < Minitest::Test
    TRUTH = { "window" => 0.05, "shared_window" => 0.08, "own_start" => 0.03, "common_start" => 0.05 }.freeze
    TRIALS = 200

    def pair(rng, truth, starts: 8, windows: 3)
      sd = truth.transform_values { |cv| Math.sqrt(Math.log(1 + (cv**2))) }
      repeats = { a: [], b: [] }
      (1..starts).each do |start|
        common = normal(rng, sd["common_start"])
        own = { a: normal(rng, sd["own_start"]), b: normal(rng, sd["own_start"]) }
        windows.times do
          shared = normal(rng, sd["shared_window"])
          repeats.each do |config, list|
            rate = 1000 * Math.exp(common + own[config] + shared + normal(rng, sd["window"]))
            list << repeat(list.size + 1, start, rate)
          end
        end
      end
      repeats.values.map { |list| Measurement.new({ "status" => "ok", "label" => "x" }, list) }
    end

    def test_each_components_interval_covers_its_truth_at_least_nine_times_in_ten
      rng = Random.new(5)
      covered = Hash.new(0)
      TRIALS.times do
        PairedComponents.new(*pair(rng, TRUTH)).components.each do |name, c|
          covered[name] += 1 if TRUTH[name].between?(*c["interval"])
        end
      end
      TRUTH.each_key { |name| assert_operator covered[name].fdiv(TRIALS), :>=, 0.90, "#{name}: #{covered}" }
    end

    def test_a_component_that_is_zero_gets_an_interval_from_zero_not_a_point
      rng = Random.new(9)
      found = PairedComponents.new(*pair(rng, TRUTH.merge("own_start" => 0.0))).components["own_start"]
      assert_in_delta 0.0, found["interval"].first, 1e-12
      assert_operator found["interval"].last, :>, 0, "how large it may be: #{found}"
    end

    def test_the_paired_variance_leaves_out_what_the_configs_share
      rng = Random.new(11)
      quiet = PairedComponents.new(*pair(rng, TRUTH.merge("shared_window" => 0.0, "common_start" => 0.0)))
      shared = PairedComponents.new(*pair(rng, TRUTH.merge("shared_window" => 0.3, "common_start" => 0.3)))
      assert_in_delta quiet.paired_start_variance, shared.paired_start_variance, quiet.paired_start_variance
    end

    private

    def normal(rng, spread) = spread * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)

    def repeat(round, start, rate)
      result = Result.new(engine: "simulation", requests: rate.round, duration_s: 1.0, requests_per_s: rate)
      Measurement::Repeat.new(index: round, deployment: start, round: round, result: result, resources: {}, noise: nil)
    end
  end
end
