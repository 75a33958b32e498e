# frozen_string_literal: true

require "test_helper"
require_relative "seed_fixtures"

module Rackbench
  module Reports
    # The per-endpoint lines of a mix cell, summed over its repeats.
    class MixBreakdownTest < Minitest::Test
      include SeedFixtures

      def test_each_member_gets_its_share_rate_latency_and_errors_over_all_repeats
        sections = MixBreakdown.new([mix_cell("puma x0:5")]).sections
        assert_equal ["mix: puma x0:5 c=4 (per endpoint)"], sections.map(&:title)
        home, create = sections.first.parts.first.rows
        assert_equal ["/", "3", "75.0 %", "30.0", "1.00", "1.00", "0", "2"], home
        assert_equal ["create", "1", "25.0 %", "10.0", "5.00", "5.00", "4", "0"], create
      end

      def test_cells_without_a_mix_add_no_section
        assert_empty MixBreakdown.new([cell("puma", { "server" => "puma" })]).sections
      end
    end
  end
end
