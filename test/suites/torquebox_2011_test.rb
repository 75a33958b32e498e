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
      measured = cells.select { |c| c["status"] == "ok" }
      assert(measured.all? { |c| c.repeats.first.result.series.size >= 2 }, "a cell kept no series")
      assert_charts_drawn(charts, at_least: 6, named: [/timeline/, /requests-per-s/])
      assert_match "Smoke run (--smoke): duration_s 60 -> 1.5", out
      assert_verdicts(out, 8)
      assert_unavailable_server_kept_with_its_reason("torquebox", cells, out)
      assert_trinidad_serves_the_rack_cells(cells)
      assert_itsi_serves_every_cell(cells)
    end

    # Itsi, today's server beside Puma: hello x2, sleep x3, Rails hello and fibonacci, without an error.
    def assert_itsi_serves_every_cell(cells)
      itsi = cells.select { |c| c["server"] == "itsi" }
      assert_equal 7, itsi.size, itsi.map { |c| [c["endpoint"], c["concurrency"]] }.inspect
      itsi.each { |c| assert_equal ["ok", 0], [c["status"], c.errors], "itsi #{c["endpoint"]}: #{c["reason"]}" }
    end

    # Trinidad (JRuby) measures every Rack cell, hello and sleep, without an error.
    def assert_trinidad_serves_the_rack_cells(cells)
      rack = cells.select { |c| c["server"] == "trinidad" && c["config"]["app"].nil? }
      assert_equal 5, rack.size, rack.map { |c| [c["endpoint"], c["concurrency"]] }.inspect
      rack.each { |c| assert_equal ["ok", 0], [c["status"], c.errors], "trinidad #{c["endpoint"]}: #{c["reason"]}" }
    end

    # TorqueBox needs Java <= 8: where it cannot run, its seven cells (hello x2,
    # sleep x3, Rails hello and fibonacci) stay, failed with the adapter's reason.
    def assert_unavailable_server_kept_with_its_reason(name, cells, out)
      reason = Servers.fetch(name).unavailable_reason
      return unless reason

      mine = cells.select { |c| c["server"] == name }
      assert_equal 7, mine.size, mine.map { |c| [c["endpoint"], c["concurrency"]] }.inspect
      mine.each { |c| assert_equal ["failed", true], [c["status"], c["reason"].include?(reason)], c["reason"] }
      assert_includes out, "TorqueBox leads the pack on Rack hello world at 100 clients: not measured, torquebox (reason above)"
    end
  end
end
