# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Every request of a window: percentiles over completed and censored ones,
  # bounds where the rank falls among the censored, exact merges.
  class WindowRequestsTest < Minitest::Test
    # 100 completed at 50 ms; 300 censored at 1, 2 and 3 s: a server at a quarter of the offered rate.
    def overloaded
      WindowRequests.new("total" => 400, "completed" => 100, "failed" => 0, "censored" => 300, "timeout" => 100,
                         "in_flight" => 100, "unsent" => 100, "histogram" => [[50_000, 100]],
                         "censored_histogram" => [[1_000_000, 100], [2_000_000, 100], [3_000_000, 100]])
    end

    def test_a_percentile_among_completed_requests_is_exact
      p25 = overloaded.percentile(25)
      assert_equal 50_000, p25.value_us
      refute p25.bound
    end

    def test_a_percentile_among_censored_requests_is_a_lower_bound
      p50 = overloaded.percentile(50)
      assert_equal [1_000_000, true], [p50.value_us, p50.bound]
      assert_equal [3_000_000, true], overloaded.percentile(99).to_a
      assert_equal({ "value_us" => 3_000_000, "censored" => true }, overloaded.percentile(100).to_h)
    end

    def test_the_unfinished_share_is_the_censored_among_all
      assert_in_delta 0.75, overloaded.unfinished_share
    end

    def test_a_young_censored_request_leaves_the_ranks_above_it_bounds
      young = WindowRequests.new("total" => 101, "censored" => 1, "histogram" => (1..100).map { |v| [v * 10, 1] },
                                 "censored_histogram" => [[5, 1]])
      assert_equal [500, true], young.percentile(50).to_a, "only 50 completed at or below the 51st of 101"
    end

    def test_without_censored_requests_percentiles_are_the_completed_ones
      plain = WindowRequests.new("total" => 4, "completed" => 4, "histogram" => [[10, 1], [20, 2], [30, 1]],
                                 "censored_histogram" => [])
      assert_equal [[20, false], [30, false]], [plain.percentile(50).to_a, plain.percentile(100).to_a]
      assert_in_delta 0.0, plain.unfinished_share
    end

    def test_merging_two_windows_equals_one_window_holding_both
      a = WindowRequests.new("total" => 3, "completed" => 2, "censored" => 1, "in_flight" => 1,
                             "histogram" => [[10, 2]], "censored_histogram" => [[99, 1]])
      b = WindowRequests.new("total" => 2, "completed" => 1, "censored" => 1, "unsent" => 1,
                             "histogram" => [[20, 1]], "censored_histogram" => [[99, 1]])
      merged = WindowRequests.merge([a, b.data])
      assert_equal [5, 3, 2, 1, 1], [merged.total, merged.completed, merged.censored, merged.in_flight, merged.unsent]
      assert_equal [[10, 2], [20, 1]], merged.completed_histogram
      assert_equal [[99, 2]], merged.censored_histogram
      assert_equal [[20, false], [99, true]], [merged.percentile(50).to_a, merged.percentile(80).to_a]
    end

    def test_an_engine_that_follows_no_requests_knows_nothing
      none = WindowRequests.new(nil)
      refute none.known?
      assert_nil none.unfinished_share
      assert_nil none.percentile(99).value_us
    end
  end
end
