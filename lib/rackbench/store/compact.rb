# frozen_string_literal: true

require "json"
require_relative "hdr_histogram"
require_relative "columns"
require_relative "difference"

module Rackbench
  class Store
    # How a window's result and resources are kept small: every histogram
    # (a result's, its window_requests' completed and censored ones, each
    # traffic mix member's, each load host's) as HdrHistogram's V2
    # compressed form (HdrHistogram), the window's requests' one as its
    # difference from the responses' (Difference), every series (the
    # per-second series, the workers' memory series) column by column
    # (Columns). The rest stays JSON as it was.
    #
    #   Compact.pack(result.to_h)      # what the store writes
    #   Compact.unpack(stored)         # what it reads: equal to what was packed
    #
    # unpack takes the JSON of earlier stores as it is (a histogram as
    # [[value_us, count], ...], a series as rows), and pack keeps anything it
    # cannot encode exactly the same way, so every stored window reads back
    # unchanged whichever rackbench wrote it. Migration 7 converts the
    # windows of earlier stores (convert_repeats).
    module Compact
      HISTOGRAMS = %w[histogram censored_histogram].freeze
      SERIES = %w[series memory_series].freeze

      module_function

      def pack(node)
        case node
        when Hash then pack_requests(node, node.to_h { |key, value| [key, pack_value(key, value)] })
        when Array then node.map { |value| pack(value) }
        else node
        end
      end

      def unpack(node)
        case node
        when Hash then unpack_requests(node.to_h { |key, value| [key, unpack_value(key, value)] })
        when Array then node.map { |value| unpack(value) }
        else node
        end
      end

      # Every stored window of database converted (:pack, or :unpack back to the
      # JSON of before): migration 7. A document that would not read back
      # equal is left as it is.
      def convert_repeats(database, direction)
        database.from(:repeats).select(:run_id, :position, :idx).all.each do |key|
          row = database.from(:repeats).where(key).select(:result_json, :resources_json).first
          changed = row.to_h { |column, text| [column, text && convert_json(text, direction)] }
          changed.reject! { |column, text| text == row[column] }
          database.from(:repeats).where(key).update(changed) unless changed.empty?
        end
      end

      def convert_json(text, direction)
        plain = unpack(JSON.parse(text))
        turned = direction == :pack ? pack(plain) : plain
        JSON.generate(unpack(turned)) == JSON.generate(plain) ? JSON.generate(turned) : text
      end

      def pack_value(key, value)
        return HdrHistogram.encode(value) || value if HISTOGRAMS.include?(key) && value.is_a?(Array) && !value.empty?
        return Columns.encode(value) || pack(value) if SERIES.include?(key) && value.is_a?(Array)

        pack(value)
      end

      # A result's window_requests histogram as its Difference from the result's histogram.
      def pack_requests(node, packed)
        requests = node["window_requests"]
        difference = requests.is_a?(Hash) && Difference.of(requests["histogram"], node["histogram"])
        difference ? packed.merge("window_requests" => packed["window_requests"].merge("histogram" => difference)) : packed
      end

      def unpack_requests(plain)
        requests = plain["window_requests"]
        return plain unless requests.is_a?(Hash) && Difference.encoded?(requests["histogram"])

        plain.merge("window_requests" => requests.merge("histogram" => Difference.apply(requests["histogram"],
                                                                                        plain["histogram"])))
      end

      def unpack_value(key, value)
        return HdrHistogram.decode(value) if HISTOGRAMS.include?(key) && HdrHistogram.encoded?(value)
        return Columns.decode(value) if SERIES.include?(key) && Columns.encoded?(value)

        unpack(value)
      end
    end
  end
end
