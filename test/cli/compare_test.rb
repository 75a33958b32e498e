# frozen_string_literal: true

require "test_helper"
require "json"
require "rackbench/cli"
require "rackbench/cli/compare"
require_relative "../reports/seed_fixtures"

module Rackbench
  # rackbench compare and run --baseline, on runs of a real puma. The
  # endpoints are sleeps, whose throughput a busy machine barely moves: 4
  # threads at 4 clients serve 40 req/s on 100 ms sleeps and 10 on 400 ms.
  class CompareTest < Minitest::Test
    include SeedFixtures

    def test_the_table_and_markdown_write_the_same_cells_with_the_figures_right_aligned
      config = { "server" => "puma", "threads" => 4 }
      baseline = [cell("puma x0:4", config, endpoint: "work", concurrency: 4, rps: 40.0)]
      current = [cell("puma x0:4", config, endpoint: "work", concurrency: 4, rps: 10.0)]
      render = Reports::RegressionReport.new(Regression.new(baseline, current), { "id" => 1, "suite" => "a" },
                                             { "id" => 2, "suite" => "a" })
      header, rule, row = render.table.lines.drop(2).first(3)
      assert_match(%r{\AServer / config  Endpoint  Conc\.  +Baseline}, header)
      assert_match(/\A-+  -+  -+  /, rule)
      assert_match(/\Apuma x0:4 +work +4  +40\.0 \[/, row, "label and endpoint left-aligned, the figures right")
      md_header, md_rule, md_row = render.markdown.lines.drop(2).first(3)
      assert_equal header.split(/\s{2,}/).map(&:strip), md_header.split("|")[1..-2].map(&:strip)
      assert_equal "| :--- | :--- | ---: | ---: | ---: | ---: | ---: |\n", md_rule
      assert_equal row.split(/\s{2,}/).map(&:strip), md_row.split("|")[1..-2].map(&:strip)
    end

    def write_suite_for(path, app: nil)
      write_suite({ "endpoints" => [{ "name" => "work", "path" => path }], "concurrency" => [4],
                    "engine" => "native", "duration_s" => 1, "warmup_s" => 0.2, "repeats" => 3, "deployments" => 3,
                    "servers" => [{ "server" => "puma", "threads" => 4 }] }.merge(app ? { "app" => app } : {}),
                  "suite-#{path.tr("/", "-")}-#{app ? "own" : "rack"}.yml")
    end

    def run_with(path, extra_args = [], app: nil)
      run_cli("run", "--results", tmpdir, *extra_args, write_suite_for(path, app: app))
    end

    def last_run_id
      store = Store.new(tmpdir)
      store.run["id"]
    ensure
      store&.close
    end

    # The /sleep/100 run two tests compare with: measured once a file (three
    # puma starts; 2 of the file's 6 runs were this same run made again), in a
    # results folder of its own, whose store each test copies into its own
    # tmpdir as its run 1 (the runs it makes come after it).
    def baseline_run_id
      self.class.baseline_dir ||= Dir.mktmpdir("rackbench-compare-baseline").tap do |dir|
        Minitest.after_run { FileUtils.rm_rf(dir) }
        status, out, err = run_cli("run", "--results", dir, write_suite_for("/sleep/100"))
        assert_equal 0, status, "#{out}\n#{err}"
      end
      FileUtils.cp(Dir[File.join(self.class.baseline_dir, "#{Store::FILE}*")], tmpdir) # its write-ahead log too
      last_run_id
    end

    class << self
      attr_accessor :baseline_dir
    end

    # The slower run is made with --baseline (three puma starts fewer than a
    # test of its own making the same run again): run prints the comparison
    # and fails, and compare then says the same of the two stored runs.
    def test_a_four_times_slower_endpoint_is_a_regression_run_with_a_baseline_says_so_and_two_alike_runs_are_not
      baseline = baseline_run_id
      run_with("/sleep/100")
      same = last_run_id
      status, out, = run_with("/sleep/400", ["--baseline", baseline.to_s])
      assert_equal 1, status, out
      assert_match "against baseline run #{baseline}", out
      assert_match "REGRESSED", out
      slower = last_run_id

      status, out, = run_cli("compare", baseline.to_s, slower.to_s, "--results", tmpdir)
      assert_equal 1, status, out
      assert_match(/puma x0:4\s+work\s+4 .* -[78]\d\.\d % \[.*regressed/, out)

      status, out, = run_cli("compare", baseline.to_s, same.to_s, "--results", tmpdir)
      assert_equal 0, status, out
      assert_match "No significant regression", out

      # 40 and 10 requests a window are too few for a p99 interval: the gate
      # shows the p99 growing, calls it inconclusive, and --strict fails on that.
      status, out, = run_cli("compare", baseline.to_s, slower.to_s, "--results", tmpdir, "--metric", "p99", "--threshold", "10%")
      assert_equal 0, status, out
      assert_match(/work\s+4 .* \+\d+\.\d %\s+inconclusive/, out, "a p99 that grew is shown growing")
      status, out, = run_cli("compare", baseline.to_s, slower.to_s, "--results", tmpdir, "--metric", "p99", "--strict")
      assert_equal 6, status, out

      status, markdown, = run_cli("compare", baseline.to_s, slower.to_s, "--results", tmpdir, "--format", "markdown")
      assert_equal 1, status
      assert_equal "### rackbench compare: REGRESSED", markdown.lines.first.chomp
      assert_match(/^\| puma x0:4 \| work \| 4 \| regressed \| -[78]\d\.\d % \[/, markdown)

      _, json, = run_cli("compare", baseline.to_s, slower.to_s, "--results", tmpdir, "--format", "json")
      data = JSON.parse(json)
      assert data["regressed"]
      assert_equal "regressed", data["cells"][0]["outcome"]
      assert_nothing_left
    end

    def test_a_new_run_whose_cells_all_failed_fails_the_gate_closed
      baseline = baseline_run_id
      broken = File.join(tmpdir, "broken.ru")
      File.write(broken, "raise 'this release cannot boot'\n")
      status, out, = run_with("/sleep/100", app: broken)
      assert_equal 3, status, out
      status, out, = run_cli("compare", baseline.to_s, last_run_id.to_s, "--results", tmpdir)
      assert_equal 5, status, out
      assert_match "NOT COMPARED", out
      assert_match(/not compared: failed in the new run/, out)
      assert_nothing_left
    end

    def test_compare_needs_two_runs_with_cells_in_common
      status, _, err = run_cli("compare", "1", "--results", tmpdir)
      assert_equal 2, status
      assert_match "compare needs two run ids", err
    end
  end
end
