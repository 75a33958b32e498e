# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Store
    class HdrHistogramTest < Minitest::Test
      # Made by HdrHistogram's JavaScript port (hdr-histogram-js 3.0.1,
      # encodeIntoCompressedBase64) from a histogram of 1 us .. 60 s at 3
      # digits holding 0 x1, 1 x2, 900 x40, 2049 x7, 123456 x3, 59000000 x1.
      FROM_HDR_HISTOGRAM_JS = "HISTFAAAADJ4nJNpmSzMwMDAz8DAwMjAwMDMAAEgNgPz5HYGGJ+JpZkv4KsgX38c2+9eRiYAhfIG8g=="

      def layout = HdrHistogram::LAYOUT

      # Buckets as rackbench-load prints them: each value its bucket's highest equivalent value.
      def buckets(values) = values.map { |v| layout.value_at(layout.index_of(v)) }.tally.sort

      def test_a_histogram_written_by_another_hdr_histogram_reads_as_rackbench_load_prints_it
        assert_equal [[0, 1], [1, 2], [900, 40], [2049, 7], [123_519, 3], [59_015_167, 1]],
                     HdrHistogram.decode(FROM_HDR_HISTOGRAM_JS)
      end

      def test_its_text_is_the_v2_compressed_form_with_the_engines_layout_in_the_header
        text = HdrHistogram.encode([[900, 40], [2049, 7]])
        assert text.start_with?("HISTFAAA"), "HdrHistogram's compressed cookie, as its interval logs hold"
        plain = Zlib::Inflate.inflate(text.unpack1("m0").byteslice(8..))
        cookie, payload, offset, digits, lowest, highest, ratio = plain.unpack(HdrHistogram::HEADER)
        assert_equal [0x1c849313, plain.bytesize - 40, 0, 3, 1, 60_000_000, 1.0],
                     [cookie, payload, offset, digits, lowest, highest, ratio]
      end

      def test_a_wide_histogram_comes_back_equal_in_a_tenth_of_its_json
        rng = Random.new(7)
        histogram = buckets(Array.new(100_000) { (Math.exp(rng.rand * 9) * 40).to_i })
        text = HdrHistogram.encode(histogram)
        assert_equal histogram, HdrHistogram.decode(text)
        assert_operator text.bytesize, :<, histogram.to_json.bytesize / 10
      end

      def test_the_edges_of_the_range_and_counts_beyond_56_bits_come_back_equal
        histogram = [[0, 1], [2047, 2**40], [2049, 2**62], [60_000_000, 3]]
        assert_equal histogram, HdrHistogram.decode(HdrHistogram.encode(histogram))
      end

      def test_buckets_that_are_not_this_layouts_are_left_to_the_caller
        assert_nil HdrHistogram.encode([[2048, 1]]), "2048 shares a bucket whose highest value is 2049"
        assert_nil HdrHistogram.encode([[1.5, 1]])
        assert_nil HdrHistogram.encode([[10, 1], [5, 1]]), "out of order"
        assert_nil HdrHistogram.encode([[10, 0]])
        assert_nil HdrHistogram.encode([])
      end

      def test_text_that_is_not_a_compressed_histogram_is_a_store_error_naming_it
        error = assert_raises(StoreError) { HdrHistogram.decode(["not a histogram"].pack("m0")) }
        assert_match(/not an HdrHistogram V2 compressed histogram/, error.message)
      end

      def test_varints_are_zigzag_leb128_with_the_ninth_byte_whole
        [0, 1, -1, 63, -64, 2**55, -(2**62), (2**63) - 1, -(2**63)].each do |value|
          bytes = HdrHistogram.write_varint(+"".b, value)
          assert_operator bytes.bytesize, :<=, 9
          assert_equal [value, bytes.bytesize], HdrHistogram.read_varint(bytes, 0)
        end
        assert_equal "\x03".b, HdrHistogram.write_varint(+"".b, -2), "zigzag: -2 is 3"
      end
    end
  end
end
