# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"

module Rackbench
  # Calibration's report names the config both cells measured, rendered from
  # the stored config by its adapter: the A and B labels are never parsed.
  class CalibrationTest < Minitest::Test
    include SeedFixtures

    def aa(name, spread)
      config = { "server" => "puma", "threads" => 2, "label" => "#{name}: puma x0:2" }
      cell(config["label"], config, spread: spread)
    end

    # Starts at these shares of 100 req/s, two windows each (1 % apart), paired by round.
    def two_windows(name, shares)
      config = { "server" => "puma", "threads" => 2, "label" => "#{name}: puma x0:2" }
      repeats = shares.each_with_index.flat_map do |share, start|
        [0.99, 1.01].each_with_index.map do |w, i|
          round = (start * 2) + i + 1
          result = Result.new(engine: "native", requests: 100, duration_s: 1.0, requests_per_s: 100 * share * w)
          Measurement::Repeat.new(index: round, deployment: start + 1, round: round, result: result, resources: {},
                                  noise: nil)
        end
      end
      Measurement.new({ "label" => config["label"], "server" => "puma", "config" => config, "status" => "ok" }, repeats)
    end

    def test_the_report_names_the_config_without_the_a_and_b_labels
      calibration = Calibration.new(aa("A", [0.99, 1.0, 1.01, 1.02]), aa("B", [0.98, 1.0, 1.01, 0.99]),
                                    start_cost_s: 3, window_cost_s: 2, trials: 20)
      assert_match(%r{\AA/A: puma x0:2 twice, }, calibration.lines.first)
    end

    # A spread that would need hundreds of starts is said, not simulated (a
    # design of that many looks would take minutes to build).
    def test_a_recommendation_beyond_reach_is_said_without_simulating_it
      calibration = Calibration.new(two_windows("A", [0.5, 1.6, 0.7, 1.4]), two_windows("B", [1.5, 0.6, 1.3, 0.8]),
                                    start_cost_s: 3, window_cost_s: 2, trials: 20)
      assert_operator calibration.recommendation["starts"], :>, Calibration::SIMULATED_STARTS
      assert_nil calibration.simulated_at_recommendation
      assert(calibration.lines.any? { |line| line.start_with?("not simulated at those settings: ") })
    end
  end
end
