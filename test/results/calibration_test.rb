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

    def test_the_report_names_the_config_without_the_a_and_b_labels
      calibration = Calibration.new(aa("A", [0.99, 1.0, 1.01, 1.02]), aa("B", [0.98, 1.0, 1.01, 0.99]),
                                    start_cost_s: 3, window_cost_s: 2, trials: 20)
      assert_match(%r{\AA/A: puma x0:2 twice, }, calibration.lines.first)
    end
  end
end
