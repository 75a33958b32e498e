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
    def two_windows(name, shares, windows: [0.99, 1.01])
      config = { "server" => "puma", "threads" => 2, "label" => "#{name}: puma x0:2" }
      repeats = shares.each_with_index.flat_map do |share, start|
        windows.each_with_index.map do |w, i|
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

    # Two starts whose paired differences are as far apart as their windows
    # let them be, no further (A and B 1 % apart each way in a round, the
    # same in both starts): the spread between starts estimates at zero, on
    # one degree of freedom. That is not a start spread known to be nil
    # (which would ask for as many windows a start as allowed), it is one
    # not measured: the windows a start are the default, and the report says why.
    def test_a_start_spread_estimated_at_zero_is_unknown_and_leaves_the_windows_a_start_at_the_default
      calibration = Calibration.new(two_windows("A", [1.0, 1.0]), two_windows("B", [1.0, 1.0], windows: [1.01, 0.99]),
                                    start_cost_s: 3, window_cost_s: 2, trials: 20)
      assert_equal 0.0, calibration.components["own_start_cv"], "the estimate came out at zero"
      assert_operator calibration.components["within_start_cv"], :>, 0
      rec = calibration.recommendation
      assert_equal Suite::KEYS.fetch("windows").default, rec["windows_per_start"]
      assert_equal calibration.send(:starts_for, calibration.paired.paired_start_variance(rec["windows_per_start"]),
                                    Math.log(1.05), Stats::LEVEL), rec["starts"]
      assert(calibration.lines.any? { |line| line.include?("spread between starts estimated at 0 over 2 starts") },
             calibration.lines.join("\n"))
    end

    # The measurement with a duet window a start (ratio: duet) at shares of
    # 50 req/s, its server busy in each (Measurement::DuetBusy).
    def with_duet(measurement, shares)
      ratio = shares.each_with_index.map do |share, i|
        result = Result.new(engine: "native", requests: 50, duration_s: 1.0, requests_per_s: 50 * share)
        Measurement::Repeat.new(index: 100 + i, deployment: i + 1, round: 100 + i, result: result,
                                resources: { "cpu_s" => 0.98, "cpu_wait_s" => 0.0, "sampled_s" => 1.0 },
                                noise: { "window" => Measurement::RATIO_WINDOW, "duet" => "cgroup v2",
                                         "start_line_at" => 1_000 + i })
      end
      Measurement.new(measurement.cell, measurement.repeats + ratio)
    end

    # The procedure reads the ratio from the duet windows: the recommendation
    # is the starts whose last look narrows their spread to the precision,
    # however wide the windows in turns are.
    def test_a_ratio_from_duet_windows_is_recommended_the_starts_its_own_spread_needs
      turns = [two_windows("A", [0.5, 1.6, 0.7, 1.4]), two_windows("B", [1.5, 0.6, 1.3, 0.8])]
      shares = [1.0, 1.04, 0.97, 1.01]
      calibration = Calibration.new(with_duet(turns[0], shares), with_duet(turns[1], [1.0] * 4), start_cost_s: 3,
                                                                                                 window_cost_s: 2, trials: 20)
      rec = calibration.recommendation
      spread = Stats.stddev(shares.map { |s| Math.log(s) })
      half = ->(n) { StudentT.critical(0.99, n - 1) * spread / Math.sqrt(n) }
      assert_operator half.call(rec["starts"]), :<=, Math.log(1.05), "the last look within ±5 %"
      assert_operator half.call(rec["starts"] - 1), :>, Math.log(1.05), "no fewer starts would do"
      assert_operator Calibration.new(*turns, start_cost_s: 3, window_cost_s: 2).recommendation["starts"], :>, rec["starts"] * 3,
                      "the windows in turns alone would need many more"
      assert_in_delta (rec["starts"] * 3) + (2 * 3 * 2 * 2), rec["wall_s"], 1e-9,
                      "the first stage's windows in turns, then starts"
      assert_includes calibration.lines[-2], "about #{rec["starts"]} starts, the ratio from their duet windows"
    end

    # The simulation draws the duet windows again and reads them as the
    # procedure does: identical configs whose windows in turns swing by
    # half are settled from their duet windows, which barely move.
    def test_a_ratio_from_duet_windows_is_simulated_on_those_windows_drawn_again
      turns = [two_windows("A", [0.5, 1.6, 0.7, 1.4]), two_windows("B", [1.5, 0.6, 1.3, 0.8])]
      calibration = Calibration.new(with_duet(turns[0], [1.0, 1.01, 0.99, 1.0]), with_duet(turns[1], [1.0, 0.99, 1.01, 1.0]),
                                    start_cost_s: 3, window_cost_s: 2, trials: 40)
      assert_includes calibration.resampled_noise.to_s, "4 duet rounds"
      simulated = calibration.simulated
      assert_operator simulated["verdicts"].fetch("equivalent", 0), :>=, 0.9, simulated.inspect
      at = calibration.simulated_at_recommendation
      refute_nil at, "simulated at the starts it recommends"
      assert_includes calibration.lines.last, "on the same resampled windows: "
      in_turns = Calibration.new(*turns, start_cost_s: 3, window_cost_s: 2, trials: 40).simulated
      assert_operator in_turns["verdicts"].fetch("equivalent", 0), :<, 0.5, "the windows in turns alone settle little"
    end
  end
end
