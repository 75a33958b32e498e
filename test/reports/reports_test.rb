# frozen_string_literal: true

require "test_helper"
require "csv"
require "json"
require_relative "seed_fixtures"

module Rackbench
  class ReportsTest < Minitest::Test
    include SeedFixtures

    RUN = { "id" => 7, "suite" => "quick", "status" => "finished", "started_at" => "2026-11-22T10:00:00Z",
            "machine" => { "cpu_model" => "Test CPU", "cores" => 2, "kernel" => "6.1", "ruby" => "ruby 3.1",
                           "engine" => "native", "engine_version" => "0.1" },
            "settings" => { "duration_s" => 2, "warmup_s" => 1, "repeats" => "auto", "windows" => 2,
                            "max_deployments" => 10, "precision" => 0.03, "max_cell_s" => 30, "deployments" => 2,
                            "order" => "interleaved", "seed" => 42, "overrides" => { "duration_s" => 2.0 } },
            "pinning" => { "server_cpus" => [0], "client_cpus" => [1] } }.freeze

    PUMA = { "server" => "puma", "threads" => 16 }.freeze

    def cells
      [cell("puma x0:16", PUMA, endpoint: "/hello", concurrency: 8, rps: 2000.0, spread: [0.9, 1.0, 1.1, 1.05]),
       cell("unicorn x4", { "server" => "unicorn" }, endpoint: "/hello", concurrency: 8, rps: 1000.0,
                                                     spread: [0.95, 1.0, 1.05, 1.02]),
       cell("thin", { "server" => "thin" }, endpoint: "/hello", concurrency: 8, status: "failed",
                                            reason: "thin exited before it was ready")]
    end

    def render(format, list = cells) = Reports.fetch(format).new(RUN, list).render

    def grouped(value) = value.round.to_s.sub(/(\d)(\d{3})\z/, '\1,\2')

    def test_the_table_shows_the_figure_over_starts_with_its_interval
      row = render("table").lines.find { |l| l.start_with?("puma x0:16") }
      puma = cells.first
      ci = puma.requests_per_s_ci
      assert_match "#{grouped(puma.requests_per_s)} [#{grouped(ci.low)}, #{grouped(ci.high)}]", row
      assert_match "0/4000", row
      assert_match "PSS 50.0", row
      assert_match "4/4d", row, "four windows over four server starts"
    end

    def test_the_table_gives_a_verdict_failures_once_and_the_settings_used
      table = render("table")
      assert_match(%r{/hello c=8: puma x0:16 faster, 2\.\d\dx \[\d\.\d\d, \d\.\d\d\]}, table)
      assert_match "FAILED thin (/hello c=8): thin exited before it was ready", table
      assert_match "server on CPU 0, load on CPU 1", table
      assert_match "order interleaved (seed 42)", table
      assert_match "command line: duration_s=2.0", table
    end

    def test_the_settings_name_a_windows_requests_where_it_is_a_number_of_requests_not_the_duration_it_does_not_use
      assert_match "2 s windows after 1 s warm-up", render("table")
      run = RUN.merge("settings" => RUN["settings"].merge("requests" => 1500))
      table = Reports.fetch("table").new(run, cells).render
      assert_match "windows of 1500 requests after 1 s warm-up", table
      refute_match "2 s windows", table
    end

    def test_the_table_fits_120_columns
      assert_operator render("table").lines.map { |l| l.chomp.length }.max, :<=, 120
    end

    def test_warnings_are_printed_under_the_table_with_their_advice
      wide = [cell("puma x0:16", PUMA, endpoint: "/hello", concurrency: 8, rps: 2000.0, spread: [0.5, 1.0, 1.5])]
      table = render("table", wide)
      assert_match(%r{Warnings:\n  - throughput interval from 1/\d+\.\d to \d+\.\d times the figure after 3 server starts}, table,
                   "an interval wider than the figure is said as a factor")
      assert_match(/differences\s+smaller than that are noise/, table)
    end

    def test_markdown_has_a_header_row_a_row_per_measured_cell_and_the_verdicts
      md = render("markdown")
      assert_match "| Server / config | Conc. | Throughput req/s [95% CI] |", md
      assert_match "| puma x0:16 | 8 | #{grouped(cells.first.requests_per_s)} [", md
      assert_match "#### Verdicts (95 % intervals over server starts", md
      assert_match(/^1 comparisons? at 95 % each: /, md)
      assert_match "- FAILED thin (/hello c=8): thin exited before it was ready", md
    end

    def test_csv_has_one_line_per_cell_with_the_ci_bounds_as_numbers
      rows = CSV.parse(render("csv").split("\n\n").first, headers: true)
      assert_equal 3, rows.size
      figure = cells.first.requests_per_s.round(1)
      assert_equal ["/hello", figure.to_s, "failed"], [rows[0]["endpoint"], rows[0]["requests_per_s"], rows[2]["status"]]
      assert_operator rows[0]["requests_per_s_low"].to_f, :<, figure
      assert_operator rows[0]["requests_per_s_high"].to_f, :>, figure
    end

    def test_json_carries_the_repeats_and_the_verdicts
      data = JSON.parse(render("json"))
      assert_equal 7, data["run"]["id"]
      assert_equal 4, data["cells"][0]["repeats"].size
      assert_equal "thin exited before it was ready", data["cells"][2]["reason"]
      assert_equal "a_better", data["verdicts"][0]["verdict"]
    end

    # p99 needs 1,000 requests (10 beyond it): with 300 the table says so, and
    # the data formats leave it empty rather than print the third-slowest.
    def test_a_percentile_too_few_requests_support_is_empty_in_json_and_csv
      few = [cell("puma x0:16", PUMA, endpoint: "/hello", concurrency: 8, requests: 100)]
      assert_match(/n=300, too few for p99/, render("table", few))
      json = JSON.parse(render("json", few))["cells"].first
      assert_equal [300, nil, nil], json.values_at("latency_count", "latency_p99_ms", "latency_p99_9_ms")
      refute_nil json["latency_p50_ms"], "p50 needs 20"
      csv = CSV.parse(render("csv", few).split("\n\n").first, headers: true).first
      assert_nil csv["latency_p99_ms"]
      refute_nil csv["latency_p50_ms"]
    end

    Seen = Struct.new(:label, :endpoint, :concurrency, :warnings)

    def engine_warning(text, code) = Measurement::Warning.new("engine", text, nil, nil, code)

    def test_engine_warnings_are_grouped_by_their_code_not_by_their_words
      cells = [Seen.new("puma", "/a", 4, [engine_warning("open loop served 23 of the 238 requests due", "shortfall")]),
               Seen.new("thin", "/a", 4, [engine_warning("fell behind its schedule by 40 %", "shortfall"),
                                          engine_warning("open loop served 23 of the 238 requests due", "slow_start")])]
      lines = Reports::Base.new(RUN, cells).warnings
      assert_equal 2, lines.size, lines.join("\n")
      assert_match(/\(2 cells, e\.g\. /, lines.first, "one line for the code, whatever each cell's words")
      assert_match(%r{ \(thin /a c=4\)\z}, lines.last)
    end

    def test_an_engine_warning_takes_its_code_from_the_engines_json_in_the_order_of_its_sentences
      result = Result.new(warnings: ["served 23 of 238", "a client stalled"],
                          warning_codes: [{ "code" => "shortfall", "served" => 23 }, { "code" => "stall" }])
      assert_equal [["served 23 of 238", "shortfall"], ["a client stalled", "stall"]], Measurement::Warnings.coded(result)
      plain = Result.new(warnings: ["ab's latency percentiles have millisecond resolution"])
      assert_equal [[plain.warnings.first, nil]], Measurement::Warnings.coded(plain), "wrk and ab give sentences alone"
    end
  end
end
