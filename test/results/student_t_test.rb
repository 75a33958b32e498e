# frozen_string_literal: true

require "test_helper"

module Rackbench
  class StudentTTest < Minitest::Test
    # Two-sided 95 % critical values from printed tables.
    TABLE = { 1 => 12.706, 2 => 4.303, 3 => 3.182, 4 => 2.776, 5 => 2.571, 9 => 2.262, 29 => 2.045 }.freeze

    def test_critical_values_match_the_printed_table
      TABLE.each { |df, t| assert_in_delta t, StudentT.critical(0.95, df), 0.001, "df #{df}" }
    end

    def test_with_many_degrees_of_freedom_it_approaches_the_normal
      assert_in_delta 1.960, StudentT.critical(0.95, 100_000), 0.001
    end

    def test_the_cdf_is_symmetric_around_zero
      assert_in_delta 0.5, StudentT.cdf(0.0, 3), 1e-12
      assert_in_delta 1.0, StudentT.cdf(1.7, 3) + StudentT.cdf(-1.7, 3), 1e-12
    end

    def test_the_p_value_of_a_critical_value_is_the_level_left_over
      assert_in_delta 0.05, StudentT.two_sided_p(StudentT.critical(0.95, 4), 4), 1e-9
      assert_in_delta 0.10, StudentT.two_sided_p(StudentT.critical(0.90, 7), 7), 1e-9
    end
  end
end
