# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Store
    class CompactTest < Minitest::Test
      def layout = HdrHistogram::LAYOUT
      def histogram(values) = values.map { |v| layout.value_at(layout.index_of(v)) }.tally.sort

      # The window's requests: its responses less one answered early, plus two still in flight at its end.
      def requests(latencies)
        counts = latencies.to_h
        counts[latencies.first.first] -= 1
        counts[layout.value_at(layout.index_of(45_000))] = 2
        counts.reject { |_, c| c.zero? }.sort
      end

      def result
        latencies = histogram((1..3000).map { |i| 200 + (i * 7919 % 40_000) })
        { "engine" => "native", "requests" => 3000, "histogram" => latencies,
          "series" => (1..10).map { |i| { "t_s" => i.to_f, "requests" => 300 + i } },
          "window_requests" => { "total" => 3001, "histogram" => requests(latencies), "censored_histogram" => [] },
          "endpoints" => [{ "name" => "/a", "histogram" => histogram([300, 301, 5000]) }],
          "hosts" => [{ "host" => "b", "histogram" => latencies, "series" => [] }] }
      end

      def test_every_histogram_and_series_is_packed_and_unpacks_equal
        packed = Compact.pack(result)
        assert HdrHistogram.encoded?(packed["histogram"])
        assert Difference.encoded?(packed.dig("window_requests", "histogram"))
        assert HdrHistogram.encoded?(packed.dig("endpoints", 0, "histogram"))
        assert HdrHistogram.encoded?(packed.dig("hosts", 0, "histogram"))
        assert Columns.encoded?(packed["series"])
        assert_equal [], packed.dig("window_requests", "censored_histogram"), "an empty one stays as it is"
        assert_equal JSON.generate(result), JSON.generate(Compact.unpack(JSON.parse(JSON.generate(packed))))
      end

      def test_the_window_requests_histogram_is_kept_as_its_smaller_difference_from_the_responses
        whole = HdrHistogram.encode(result.dig("window_requests", "histogram"))
        difference = Compact.pack(result).dig("window_requests", "histogram")
        assert_operator JSON.generate(difference).bytesize, :<, whole.bytesize / 3
        assert_equal [[layout.value_at(layout.index_of(45_000)), 2]], HdrHistogram.decode(difference["add"])
      end

      def test_the_json_of_earlier_stores_unpacks_as_it_is
        assert_equal result, Compact.unpack(result)
      end

      def test_a_histogram_it_cannot_encode_is_kept_as_json
        odd = { "histogram" => [[2048, 1]], "series" => [{ "t_s" => nil }] }
        assert_equal odd, Compact.pack(odd)
      end

      def test_a_workers_memory_series_with_pid_lists_keeps_its_rows
        resources = { "memory_series" => [[0.2, 29_447_168, 28_119_040, [14_518]]], "cpu_s" => 1.2 }
        assert_equal resources, Compact.unpack(Compact.pack(resources))
      end
    end
  end
end
