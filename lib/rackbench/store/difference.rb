# frozen_string_literal: true

module Rackbench
  class Store
    # A histogram kept as its difference from a sibling histogram: the two
    # HdrHistograms (HdrHistogram's V2 compressed form) of the counts to add
    # to the sibling and of those to take away. A window's requests
    # (window_requests: the requests sent in the window, followed to their
    # end) and its completed responses (histogram) differ only by the few
    # requests at the window's edges, so the difference takes a fraction of the
    # histogram's own form.
    #
    #   Difference.of(requests, responses)    # => {"of" => "histogram", "add" => "HISTFAAA...", "remove" => []}
    #   Difference.apply(stored, responses)   # => requests again
    #
    # of gives nil when the difference would not be smaller, or not exact.
    module Difference
      OF = "histogram"

      module_function

      def encoded?(value) = value.is_a?(Hash) && value["of"] == OF

      def of(histogram, base)
        return nil unless histogram.is_a?(Array) && base.is_a?(Array) && !histogram.empty? && !base.empty?

        add = excess(histogram, base)
        remove = excess(base, histogram)
        stored = { "of" => OF, "add" => encode(add), "remove" => encode(remove) }
        return nil unless stored.values.all? && apply(stored, base) == histogram

        whole = HdrHistogram.encode(histogram)
        whole.nil? || JSON.generate(stored).bytesize < whole.bytesize ? stored : nil
      end

      def apply(stored, base)
        counts = base.to_h
        decode(stored["add"]).each { |value, count| counts[value] = counts.fetch(value, 0) + count }
        decode(stored["remove"]).each { |value, count| counts[value] = counts.fetch(value, 0) - count }
        counts.reject { |_, count| count.zero? }.sort
      end

      # The counts of a above b's, bucket by bucket.
      def excess(a, b)
        other = b.to_h
        a.filter_map { |value, count| [value, count - other.fetch(value, 0)] if count > other.fetch(value, 0) }
      end

      def encode(buckets) = buckets.empty? ? [] : HdrHistogram.encode(buckets)
      def decode(stored) = stored.is_a?(String) ? HdrHistogram.decode(stored) : stored
    end
  end
end
