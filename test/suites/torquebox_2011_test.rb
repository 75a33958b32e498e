# frozen_string_literal: true

require "test_helper"
require_relative "seed_smoke"

module Rackbench
  class Torquebox2011SuiteTest < Minitest::Test
    include SeedSmoke

    def test_the_smoke_run_has_every_server_as_a_row_a_timeline_per_test_and_the_articles_claims_checked
      out, _run, cells, charts = smoke_run("torquebox-2011")
      assert_rows_for_every_server("torquebox-2011", out, cells)
      assert_equal %w[hello sleep fibonacci].sort, cells.map { |c| c["endpoint"] }.uniq.sort
      assert(cells.any? { |c| c["config"]["app"] == "rails" && c["status"] == "ok" }, "no Rails cell was measured")
      assert(cells.select { |c| c["status"] == "ok" }.all? { |c| c["result"]["series"].size >= 2 }, "a cell kept no series")
      assert_charts_drawn(charts, at_least: 6, named: [/timeline/, /requests-per-s/])
      assert_match "Smoke run (--smoke): duration_s 60 -> 2", out
      assert_verdicts(out, 8)
    end
  end
end
