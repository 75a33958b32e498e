# frozen_string_literal: true

require "test_helper"
require_relative "seed_fixtures"

module Rackbench
  module Reports
    # What every tabular format shares (Base): a heading that says what ran
    # and with which settings, a row per measured cell with its interval,
    # warnings grouped by kind with their worst case, and figures grouped in
    # thousands. (Each format's own output: test/reports/reports_test.rb.)
    class BaseTest < Minitest::Test
      include SeedFixtures

      RUN = { "id" => 3, "suite" => "quick", "status" => "failed", "reason" => "postgres exited",
              "started_at" => "2026-11-22T10:00:00Z",
              "machine" => { "cpu_model" => "Test CPU", "cores" => 2, "kernel" => "6.1", "ruby" => "ruby 3.1",
                             "engine" => "native", "engine_version" => "0.1" },
              "settings" => { "duration_s" => 2, "warmup_s" => 1, "repeats" => 4, "deployments" => 2, "order" => "random",
                              "seed" => 9, "overrides" => { "concurrency" => [1, 8] },
                              "scaled" => { "by" => "smoke", "changes" => [{ "key" => "duration_s", "from" => 4, "to" => 2 }] } },
              "pinning" => {} }.freeze

      def report(cells = []) = Base.new(RUN, cells)

      def noisy(label, share)
        m = cell(label, { "server" => "puma" })
        m.repeats.each { |r| r.noise = { "other_cpu_share" => share } }
        m
      end

      def test_the_heading_says_the_run_its_status_the_machine_and_the_settings_used
        heading = report.heading
        assert_equal "Run 3: suite quick (failed: postgres exited, 2026-11-22T10:00:00Z)", heading[0]
        assert_equal "Machine: Test CPU, 2 cores, Linux 6.1, ruby 3.1", heading[1]
        assert_equal "Engine: native 0.1; not pinned", heading[2]
        settings = heading.find { |line| line.start_with?("Settings: ") }
        assert_match "2 s windows after 1 s warm-up", settings
        assert_match "order random (seed 9)", settings
        assert_match "command line: concurrency=1,8", settings
        assert settings.end_with?(". Smoke run (--smoke): duration_s 4 -> 2"), "what --smoke changed, last: #{settings}"
      end

      def test_the_settings_say_when_ratio_windows_decided_and_what_the_first_stage_took_in_turns
        duet = RUN.merge("settings" => RUN["settings"].merge("ratio" => "duet"))
        settings = ->(run) { Base.new(run, []).heading.find { |line| line.start_with?("Settings: ") } }
        assert_match "a throughput verdict reads those while both servers kept the CPU busy, and", settings.call(duet)
        staged = duet.merge("settings" => duet["settings"].merge("ratio_stage_windows" => 1))
        assert_match "(such a block took 1 window in turns a start in its first stage, ratio windows only after it)",
                     settings.call(staged)
      end

      def test_a_row_carries_the_figure_its_interval_as_numbers_and_the_repeats_over_starts
        row = report.row(cell("puma", { "server" => "puma" }, rps: 2000.0, spread: [0.9, 1.0, 1.1]))
        assert_operator row["requests_per_s_low"], :<, row["requests_per_s"]
        assert_operator row["requests_per_s"], :<, row["requests_per_s_high"]
        assert_match(/\A\d,\d{3} \[\d,\d{3}, \d,\d{3}\]\z/, row["throughput"])
        assert_equal "3/3d", row["repeats"]
      end

      def test_only_measured_cells_are_rows_grouped_by_endpoint
        cells = [cell("puma", { "server" => "puma" }, endpoint: "a"), cell("thin", { "server" => "thin" }, endpoint: "b"),
                 cell("unicorn", { "server" => "unicorn" }, endpoint: "a", status: "failed", reason: "exited")]
        servers = report(cells).rows_by_endpoint.transform_values { |rows| rows.map { |r| r["server"] } }
        assert_equal({ "a" => ["puma"], "b" => ["thin"] }, servers)
      end

      def test_a_warning_of_several_cells_is_one_line_naming_how_many_and_the_worst
        lines = report([noisy("puma", 0.2), noisy("thin", 0.6), cell("unicorn", { "server" => "unicorn" })]).warnings
        assert_equal 1, lines.size
        assert_match(/\Aother processes used 60 % .*\(2 cells, e\.g\. thin hello c=10\): figures are not comparable/, lines[0])
      end

      def test_figures_are_grouped_in_thousands_and_small_ones_keep_a_decimal
        base = report
        assert_equal(["18,234", "100", "99.5", "-"], [18_234.4, 100.0, 99.5, nil].map { |v| base.grouped(v) })
      end
    end
  end
end
