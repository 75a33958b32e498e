# frozen_string_literal: true

require "zlib"

module Rackbench
  class Store
    # A histogram as the store keeps it: HdrHistogram's V2 compressed
    # encoding, base64 (the form HdrHistogram's interval logs hold, starting
    # "HISTFAAA"), which any HdrHistogram library decodes. rackbench-load's
    # histograms (ext/rackbench_load/hist.c) have HdrHistogram's own bucket
    # layout, lowest discernible value 1 us, LAYOUT's highest value and
    # digits; a result carries each as [[value_us, count], ...], value_us
    # being its bucket's highest equivalent value (clamped to the highest
    # trackable one), so a counts index maps to one value and back.
    #
    #   HdrHistogram.encode([[100, 400], [1000, 590]])   # => "HISTFAAAA..." (nil: not this layout)
    #   HdrHistogram.decode("HISTFAAAA...")              # => [[100, 400], [1000, 590]]
    #
    # The V2 form: a 40-byte big-endian header (cookie, payload length,
    # normalizing index offset, significant digits, lowest discernible value,
    # highest trackable value, integer-to-double ratio), then the counts from
    # index 0 to the last non-zero one as ZigZag LEB128 (64-bit in at most 9
    # bytes), a run of N > 1 zero counts written as -N. Compressed: a cookie,
    # the deflated (zlib) length, the deflated V2 bytes.
    module HdrHistogram
      COOKIE = 0x1c849303 | 0x10
      COMPRESSED_COOKIE = 0x1c849304 | 0x10
      HEADER = "NNNNq>q>G" # cookie, payload bytes, index offset, digits, lowest, highest, ratio
      HEADER_BYTES = 40
      Layout = Struct.new(:highest, :digits) do
        def sub_bucket_half_magnitude = ((2 * (10**digits)) - 1).bit_length - 1
        def sub_bucket_half_count = 1 << sub_bucket_half_magnitude
        def sub_bucket_mask = (1 << (sub_bucket_half_magnitude + 1)) - 1

        def index_of(value)
          bucket = (value | sub_bucket_mask).bit_length - (sub_bucket_half_magnitude + 1)
          ((bucket + 1) << sub_bucket_half_magnitude) + (value >> bucket) - sub_bucket_half_count
        end

        # The bucket's highest equivalent value, as hist_next_bucket gives it.
        def value_at(index)
          bucket = (index >> sub_bucket_half_magnitude) - 1
          sub = (index & (sub_bucket_half_count - 1)) + sub_bucket_half_count
          if bucket.negative?
            sub -= sub_bucket_half_count
            bucket = 0
          end
          [(sub << bucket) + (1 << bucket) - 1, highest].min
        end
      end
      # rackbench-load's latency shape (hist.h): 1 us .. 60 s at 3 digits.
      LAYOUT = Layout.new(60_000_000, 3)

      module_function

      def encoded?(value) = value.is_a?(String)

      # The base64 text, or nil when buckets are not LAYOUT's (then the caller keeps them as they are).
      def encode(buckets, layout: LAYOUT)
        counts = counts_of(buckets, layout) or return nil
        payload = counts_payload(counts)
        header = [COOKIE, payload.bytesize, 0, layout.digits, 1, layout.highest, 1.0].pack(HEADER)
        deflated = Zlib::Deflate.deflate(header + payload, Zlib::BEST_COMPRESSION)
        [[COMPRESSED_COOKIE, deflated.bytesize].pack("NN") + deflated].pack("m0")
      end

      # [[value_us, count], ...] from the base64 text; raises StoreError when it is not V2 compressed.
      def decode(text)
        bytes = text.unpack1("m0")
        cookie, length = bytes.unpack("NN")
        unless cookie == COMPRESSED_COOKIE
          raise StoreError, "not an HdrHistogram V2 compressed histogram (cookie #{format("%#x", cookie.to_i)})"
        end

        plain = Zlib::Inflate.inflate(bytes.byteslice(8, length))
        # The normalizing index offset and the ratio are for DoubleHistogram; read and set aside
        # as HdrHistogram's other ports do (its JavaScript port writes 1 in both).
        cookie, payload_bytes, _offset, digits, _lowest, highest, = plain.unpack(HEADER)
        raise StoreError, "not an HdrHistogram V2 histogram (cookie #{format("%#x", cookie.to_i)})" unless cookie == COOKIE

        layout = Layout.new(highest, digits)
        counts(plain.byteslice(HEADER_BYTES, payload_bytes)).filter_map.with_index do |count, index|
          [layout.value_at(index), count] if count.positive?
        end
      rescue ArgumentError, Zlib::Error => e
        raise StoreError, "a stored histogram cannot be read: #{e.message}"
      end

      # {index => count} when every bucket is a value of this layout, in order.
      def counts_of(buckets, layout)
        return nil unless buckets.is_a?(Array) && !buckets.empty?

        last = -1
        buckets.to_h do |value, count|
          return nil unless value.is_a?(Integer) && count.is_a?(Integer) && value > last && count.positive? &&
                            value <= layout.highest && layout.value_at(layout.index_of(value)) == value

          last = value
          [layout.index_of(value), count]
        end
      end

      def counts_payload(counts)
        out = +"".b
        index = 0
        counts.each do |at, count|
          zeros = at - index
          write_varint(out, -zeros) if zeros > 1
          write_varint(out, 0) if zeros == 1
          write_varint(out, count)
          index = at + 1
        end
        out
      end

      def counts(payload)
        list = []
        at = 0
        while at < payload.bytesize
          value, at = read_varint(payload, at)
          value.negative? ? list.concat(Array.new(-value, 0)) : list << value
        end
        list
      end

      # ZigZag, then LEB128 with 64 bits in at most 9 bytes (the 9th keeps 8 bits).
      def write_varint(out, value)
        rest = (value << 1) ^ (value >> 63)
        8.times do
          return out << rest if rest < 0x80

          out << ((rest & 0x7f) | 0x80)
          rest >>= 7
        end
        out << rest
      end

      def read_varint(bytes, at)
        rest = 0
        shift = 0
        loop do
          byte = bytes.getbyte(at)
          at += 1
          rest |= (shift == 56 ? byte : byte & 0x7f) << shift
          break if shift == 56 || byte < 0x80

          shift += 7
        end
        [(rest >> 1) ^ -(rest & 1), at]
      end
    end
  end
end
