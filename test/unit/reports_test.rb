# frozen_string_literal: true

require "test_helper"
require "csv"
require "json"

module Rackbench
  class ReportsTest < Minitest::Test
    RUN = { "id" => 7, "suite" => "quick", "status" => "finished", "started_at" => "2026-11-22T10:00:00Z",
            "machine" => { "cpu_model" => "Test CPU", "cores" => 2, "kernel" => "6.1", "ruby" => "ruby 3.1",
                           "engine" => "wrk", "engine_version" => "4.1" },
            "pinning" => { "server_cpus" => [0], "client_cpus" => [1] } }.freeze

    def cells
      [
        { "label" => "puma x0:16", "endpoint" => "/hello", "concurrency" => 8, "status" => "ok",
          "requests_per_s" => 2492.89, "latency_mean_us" => 19_210.0, "latency_p99_us" => 40_000, "errors" => 0,
          "result" => { "requests" => 74_941, "errors" => { "read" => 0 } },
          "resources" => { "pss_max_bytes" => 52_428_800, "cpu_percent" => 97.5 } },
        { "label" => "thin", "endpoint" => "/hello", "concurrency" => 8, "status" => "failed",
          "reason" => "thin exited before it was ready" }
      ]
    end

    def render(format) = Reports.fetch(format).new(RUN, cells).render

    def test_the_table_shows_throughput_latency_errors_and_memory_per_server
      table = render("table")
      row = table.lines.find { |l| l.start_with?("puma x0:16") }
      assert_equal ["puma", "x0:16", "8", "2492.89", "19.21", "40.00", "0/74941", "50.00", "97.50"], row.split
      assert_match "FAILED thin /hello: thin exited before it was ready", table
      assert_match "server on CPU 0, load on CPU 1", table
    end

    def test_markdown_has_a_header_row_and_a_row_per_cell
      md = render("markdown")
      assert_match "| Server / config | Conc. | Throughput (req/s) |", md
      assert_match "| puma x0:16 | 8 | 2492.89 | 19.21 |", md
      assert_match "| thin | 8 | - | - | - | FAILED |", md
    end

    def test_csv_has_one_line_per_cell
      rows = CSV.parse(render("csv"), headers: true)
      assert_equal 2, rows.size
      assert_equal ["/hello", "2492.89", "failed"], [rows[0]["endpoint"], rows[0]["requests_per_s"], rows[1]["status"]]
    end

    def test_json_round_trips_the_stored_run
      data = JSON.parse(render("json"))
      assert_equal 7, data["run"]["id"]
      assert_equal "thin exited before it was ready", data["cells"][1]["reason"]
    end
  end
end
