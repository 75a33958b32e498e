# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Store
    class ColumnsTest < Minitest::Test
      def series
        (1..30).map do |i|
          { "t_s" => i + (i * 0.000137).round(6), "requests" => 900 + (i * 37 % 50), "errors" => (i % 7).zero? ? 1 : 0,
            "p50_us" => 1000 + i, "p99_us" => 5000 - i, "max_us" => 9000 + (i * i) }
        end
      end

      def test_a_per_second_series_comes_back_equal_keys_order_and_types_included
        stored = Columns.encode(series)
        back = Columns.decode(JSON.parse(JSON.generate(stored)))
        assert_equal series, back
        assert_equal JSON.generate(series), JSON.generate(back)
        assert_equal [6, nil, nil, nil, nil, nil], stored["decimals"]
        assert_operator JSON.generate(stored).bytesize, :<, JSON.generate(series).bytesize / 3
      end

      def test_rows_as_arrays_come_back_as_arrays
        rows = Array.new(20) { |i| [(i * 0.25) - 0.5, 29_447_168 + (i * 4096), 2] }
        stored = Columns.encode(rows)
        assert_nil stored["keys"]
        assert_equal rows, Columns.decode(stored)
      end

      def test_what_it_cannot_keep_exactly_is_left_to_the_caller
        assert_nil Columns.encode([{ "a" => 1 }, { "b" => 2 }]), "rows of different keys"
        assert_nil Columns.encode([[1, nil]])
        assert_nil Columns.encode([[1, [2, 3]]]), "a list inside a row"
        assert_nil Columns.encode([[0.1 + 0.2]]), "a float beyond 9 decimals"
        assert_nil Columns.encode([[-0.0]]), "a negative zero would come back as 0.0"
        assert_nil Columns.encode([]), "nothing to gain"
        assert_nil Columns.encode([{ "t_s" => 1.0, "requests" => 950 }]), "one row: its JSON is smaller"
      end

      def test_integers_and_floats_of_one_column_keep_their_types
        assert_nil Columns.encode([[1], [2.5]]), "a column of both is left as it is"
        rows = Array.new(100) { |i| [i.to_f, 1.5 * i] }
        back = Columns.decode(Columns.encode(rows))
        assert_equal rows, back
        assert back.flatten.all?(Float), "2.0 comes back 2.0, not 2"
      end
    end
  end
end
