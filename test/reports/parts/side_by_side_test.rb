# frozen_string_literal: true

require "test_helper"
require "rackbench/reports/parts/side_by_side"

module Rackbench
  class SideBySideTest < Minitest::Test
    def test_side_by_side_tables_turn_one_row_per_config_when_wider_than_120_columns
      narrow = Reports::SideBySide.new("", ["req/s"], %w[a b], [%w[1.0 2.0]], short_rows: ["r"]).render
      assert_match(%r{\| req/s \|\s+1.0 \|\s+2.0 \|}, narrow)
      names = ["puma, 4 workers x 5 threads", "puma, 8 workers x 10 threads", "unicorn, 8 workers", "unicorn, 4 workers", "thin"]
      wide = Reports::SideBySide.new("endpoint", %w[/sleep /fib], names, [%w[1 2 3 4 0], %w[5 6 7 8 0]]).render
      assert_match(%r{\| config\s+\| /sleep \| /fib \|}, wide)
      assert_match(/\| unicorn, 8 workers\s+\|\s+3 \|\s+7 \|/, wide)
    end

    def test_a_transposed_table_still_too_wide_is_cut_into_tables_of_fewer_figures
      names = ["thin, 4 instances on Unix sockets, via nginx (3 workers, round-robin)", "apache_passenger, 4 workers"]
      figures = %w[req/s total KB/s longest busy memory]
      values = figures.map { %w[1234.56 7890.12] }
      text = Reports::SideBySide.new("", figures.map { |f| "#{f} (a long name)" }, names, values, short_rows: figures).render
      tables = text.split("\n\n")
      assert_operator tables.size, :>=, 2
      assert(text.lines.all? { |l| l.chomp.length <= 120 }, text)
      assert_equal(figures, tables.flat_map { |t| t.lines.first.split("|").map(&:strip).reject(&:empty?).drop(1) })
    end
  end
end
