# frozen_string_literal: true

require "json"

module Rackbench
  class Store
    # A series as the store keeps it (the per-second series of a result, the
    # workers' memory series of a repeat's resources): column by column,
    # each value as an integer (a column of decimals scaled by the smallest
    # power of ten that keeps every value exactly), the difference from the
    # row before as a ZigZag LEB128 varint, base64. This is rackbench's own
    # form, not a standard one: the rows come back equal, keys, order and
    # types (Integer, Float) included.
    #
    #   Columns.encode([{"t_s" => 1.5, "requests" => 950}, {"t_s" => 2.5, "requests" => 990}])
    #   # => {"encoding" => "columns-v1", "keys" => ["t_s", "requests"], "decimals" => [3, nil], "rows" => 2, "data" => "..."}
    #   Columns.encode([[0.1, 1_024_000], [0.2, 1_056_768]])   # rows as arrays: "keys" => nil
    #
    # encode gives nil for what it cannot keep exactly (a nil, a string, rows
    # of different keys) or would not make smaller (a row or two): the
    # caller keeps those rows as they are.
    module Columns
      ENCODING = "columns-v1"
      DECIMALS = [0, 3, 6, 9].freeze # tried for a column of Floats

      module_function

      def encoded?(value) = value.is_a?(Hash) && value["encoding"] == ENCODING

      def encode(rows)
        split = split(rows) or return nil
        keys, columns = split
        decimals = columns.map { |column| decimals_of(column).tap { |d| return nil if d == false } }
        data = +"".b
        columns.zip(decimals).each do |column, places|
          previous = 0
          column.each do |value|
            whole = places ? (value * (10**places)).round : value
            HdrHistogram.write_varint(data, whole - previous)
            previous = whole
          end
        end
        stored = { "encoding" => ENCODING, "keys" => keys, "decimals" => decimals, "rows" => rows.size,
                   "data" => [data].pack("m0") }
        JSON.generate(stored).bytesize < JSON.generate(rows).bytesize ? stored : nil
      end

      def decode(stored)
        data = stored.fetch("data").unpack1("m0")
        at = 0
        columns = stored.fetch("decimals").map do |places|
          previous = 0
          Array.new(stored.fetch("rows")) do
            delta, at = HdrHistogram.read_varint(data, at)
            previous += delta
            places ? previous.fdiv(10**places) : previous
          end
        end
        rows = columns.empty? ? [] : columns.first.zip(*columns.drop(1))
        keys = stored["keys"]
        keys ? rows.map { |row| keys.zip(row).to_h } : rows
      rescue ArgumentError, NoMethodError, KeyError => e
        raise StoreError, "a stored series cannot be read: #{e.message}"
      end

      # [keys or nil, columns] when every row has the same shape.
      def split(rows)
        return nil unless rows.is_a?(Array) && !rows.empty?

        first = rows.first
        keys = first.is_a?(Hash) ? first.keys : nil
        return nil unless keys || first.is_a?(Array)

        values = rows.map do |row|
          return nil unless keys ? row.is_a?(Hash) && row.keys == keys : row.is_a?(Array) && row.size == first.size

          keys ? row.values : row
        end
        [keys, values.transpose]
      end

      # The column's decimals: nil for Integers (kept as they are), else the
      # fewest that keep every Float exactly; false when neither fits.
      def decimals_of(column)
        return nil if column.all?(Integer)
        return false unless column.all? { |v| v.is_a?(Float) && v.finite? && !(v.zero? && (1 / v).negative?) }

        # exact equality is the point: the value must come back bit for bit
        DECIMALS.find { |d| column.all? { |v| (v * (10**d)).round.fdiv(10**d).eql?(v) } } || false # rubocop:disable Lint/FloatComparison
      end
    end
  end
end
