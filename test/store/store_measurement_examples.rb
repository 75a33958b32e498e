# frozen_string_literal: true

module Rackbench
  # A finished cell's Measurement, whichever database holds it: built once
  # from what was stored (Store#finish_cell), handed out again by
  # #measurements, its figures kept as columns. Included, with
  # StoreExamples (new_run, cell, repeat), by the SQLite tests and the
  # PostgreSQL ones.
  module StoreMeasurementExamples
    def test_a_finished_cell_is_measured_from_what_was_stored_once_and_its_figures_become_columns
      run = new_run
      [100.0, 121.0].each_with_index { |rps, i| @store.add_repeat(run["id"], 1, repeat(i + 1, rps)) }
      finished = @store.finish_cell(run["id"], cell(1, nil).transform_keys(&:to_s).except("requests_per_s", "requests"))
      assert_in_delta 110.0, finished.requests_per_s, 1e-9, "over the stored repeats"
      assert_same finished, @store.measurements(run["id"]).first, "built once, handed out again"
      stored = @store.cells(run["id"]).first
      assert_in_delta finished.requests_per_s, stored["requests_per_s"], 1e-9
      assert_equal [2000, 3], stored.values_at("requests", "errors")
      assert_equal stored, finished.cell, "the row reads as a fresh read of the cell"
      fresh = open_store
      assert_equal finished.to_h, fresh.measurements(run["id"]).first.to_h, "as another store builds it"
      fresh.close
    end

    def test_a_suite_setting_merged_into_a_run_measures_its_cells_again_and_a_later_fact_does_not
      run = new_run
      @store.add_repeat(run["id"], 1, repeat(1, 100.0))
      finished = @store.finish_cell(run["id"], cell(1, nil).transform_keys(&:to_s))
      @store.merge_settings(run["id"], "budget_spent_after_starts" => 3)
      assert_same finished, @store.measurements(run["id"]).first
      @store.merge_settings(run["id"], "precision" => 0.5)
      again = @store.measurements(run["id"]).first
      refute_same finished, again
      assert_in_delta 0.5, again.precision, 1e-9
    end

    def test_each_starts_boot_is_read_alone_by_server_from_the_finished_cells_of_the_runs_asked
      runs = Array.new(2) { new_run }
      runs.each_with_index do |run, i|
        first = repeat(1, 100.0).tap { |r| r.resources = r.resources.merge("boot_s" => 2.5 + i) }
        @store.add_repeat(run["id"], 1, first)
        @store.add_repeat(run["id"], 1, repeat(2, 100.0))
        @store.finish_cell(run["id"], cell(1, nil).transform_keys(&:to_s))
      end
      @store.add_repeat(runs[0]["id"], 2, repeat(1, 100.0).tap { |r| r.resources = { "boot_s" => 9.0 } }) # never finished
      assert_equal({ "puma" => [2.5] }, @store.boot_seconds([runs[0]["id"]]))
      assert_equal [2.5, 3.5], @store.boot_seconds(runs.map { |r| r["id"] })["puma"].sort
    end
  end
end
