# frozen_string_literal: true

module Rackbench
  module Probe
    # The probe's compact histogram buckets: exact below 32 us, then 32
    # buckets per power of two (each at most about 3 % wide), so a bucket
    # index is a small integer and histograms merge exactly by adding counts.
    # Loaded into the server under test: needs nothing else of rackbench.
    #
    #   i = Histogram.index(1234)      # => 198
    #   Histogram.value(i)             # => the bucket's midpoint, 1231.5 (within 3 % of 1234)
    #   Histogram.percentile({i => 3}, 50)   # => 1231.5
    module Histogram
      SUB_BUCKETS = 32
      SUB_BITS = 5

      module_function

      # value_us: a whole number of microseconds. Runs once per part of every
      # probed request, so it is kept to a few integer operations:
      # SUB_BUCKETS + shift * SUB_BUCKETS + ((v >> shift) - SUB_BUCKETS) with the SUB_BUCKETS cancelled.
      def index(value_us)
        return (value_us.negative? ? 0 : value_us) if value_us < SUB_BUCKETS

        shift = value_us.bit_length - SUB_BITS - 1
        (shift << SUB_BITS) + (value_us >> shift)
      end

      # The lowest value of bucket i, and the first of the next.
      def bounds(i)
        return [i, i + 1] if i < SUB_BUCKETS

        shift, sub = (i - SUB_BUCKETS).divmod(SUB_BUCKETS)
        [(sub + SUB_BUCKETS) << shift, (sub + SUB_BUCKETS + 1) << shift]
      end

      def value(i)
        low, high = bounds(i)
        (low + high - 1) / 2.0
      end

      # The bucket holding the p-th percentile of counts ({index => count}), or nil when empty.
      def percentile_index(counts, p)
        total = counts.sum { |_, n| n }
        return nil if total.zero?

        rank = [(p / 100.0 * total).ceil, 1].max
        seen = 0
        counts.keys.sort.each do |i|
          seen += counts[i]
          return i if seen >= rank
        end
      end

      def percentile(counts, p)
        i = percentile_index(counts, p)
        i && value(i)
      end
    end
  end
end
