# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Two versions measured side by side in one run (rackbench ab): compared
  # start by start, drift that moves both versions alike cancels, where two
  # runs compared as a whole cannot tell it from a change.
  class RegressionTest < Minitest::Test
    # The machine's pace at each of 4 starts (two windows each): it swings by a third.
    DRIFT = [1.0, 0.8, 1.2, 0.9].freeze

    # own: each start's own wobble of this version, apart from the drift.
    def measurement(label, variant, share, own)
      repeats = DRIFT.zip(own).each_with_index.flat_map do |(pace, wobble), start|
        [0.99, 1.01].each_with_index.map do |window, w|
          rate = 100.0 * pace * wobble * share * window
          result = Result.new(requests: rate.round, duration_s: 1.0, requests_per_s: rate)
          Measurement::Repeat.new(index: (start * 2) + w + 1, deployment: start + 1, round: (start * 2) + w + 1,
                                  result: result, resources: {}, noise: nil)
        end
      end
      row = { "label" => label, "status" => "ok", "endpoint" => "/", "concurrency" => 8, "variant" => variant,
              "config" => { "server" => "puma", "label" => label } }
      Measurement.new(row, repeats)
    end

    # B serves 10 % fewer requests than A at every start.
    def sides
      [[measurement("A old: puma", 1, 1.0, [1.0, 1.01, 0.99, 1.0])],
       [measurement("B new: puma", 2, 0.9, [1.01, 0.99, 1.0, 0.98])]]
    end

    def by_entry = ->(m) { [(m.variant - 1) / 2, m.endpoint, m.concurrency, m.offered_rate_per_s] }

    def test_paired_by_start_a_tenth_slower_version_regressed_through_the_drift
      a, b = sides
      regression = Regression.new(a, b, paired: true, key: by_entry)
      row = regression.rows.first
      assert_equal :regressed, row.outcome
      assert_match(/\A-10\.\d % \[-1\d\.\d, -\d\.\d\]\z/, regression.change_text(row))
    end

    def test_unpaired_the_same_windows_leave_it_inconclusive
      a, b = sides
      assert_equal :inconclusive, Regression.new(a, b, paired: false, key: by_entry).rows.first.outcome
    end

    # Two runs where every cell moved alike: compare says the machine may
    # have moved and points to ab; cells that moved apart say nothing.
    def test_every_cell_moving_the_same_way_between_two_runs_is_named_as_possible_drift
      cells = ->(share) { (1..3).map { |c| measurement("puma #{c}", 1, share * c, [1.0, 1.01, 0.99, 1.0]) } }
      slower = Regression.new(cells.call(1.0), cells.call(0.85))
      assert_match(/\Aevery one of the 3 cells moved the same way \(median -15\.0 %\)/, slower.drift_text)
      assert_match(/rackbench ab BASELINE NEW/, slower.drift_text)
      one_moved = cells.call(1.0).each_with_index.map do |m, i|
        i.zero? ? measurement("puma 1", 1, 0.8, [1.0, 1.01, 0.99, 1.0]) : m
      end
      mixed = Regression.new(cells.call(1.0), one_moved)
      assert_nil mixed.drift_text
    end

    def test_cells_of_two_versions_match_by_the_key_given_and_not_by_their_configs
      a, b = sides
      assert_equal [nil], Regression.new(a, b).rows.map(&:current), "by config, A's cell has no match in B"
      assert_equal(["B new: puma"], Regression.new(a, b, key: by_entry).rows.map { |r| r.current.label })
    end
  end
end
