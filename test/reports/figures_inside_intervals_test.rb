# frozen_string_literal: true

require "test_helper"
require "json"

module Rackbench
  # Every figure a report prints lies inside its own interval, in every
  # format, on a real run: throughput (figure over starts, t interval over
  # starts) and p99 (merged histogram, batch means over starts) alike. One
  # run (3 starts of two servers, a window each) serves every format's check.
  # Its ratios come from the windows in turns (ratio: turns): a duet ratio
  # window a start would add load no figure checked here reads. The run and
  # the reports go through the command line's code in this process
  # (CLI.start), not a bin/rackbench process each.
  class FiguresInsideIntervalsTest < Minitest::Test
    def measure_a_run
      suite = write_suite({ "endpoints" => ["/hello", "/sleep/10"], "concurrency" => [4], "engine" => "native",
                            "duration_s" => 1, "warmup_s" => 0.3, "repeats" => 3, "deployments" => 3, "ratio" => "turns",
                            "servers" => [{ "server" => "puma", "threads" => 4 }, { "server" => "thin" }] })
      status, out, err = run_cli("run", "--no-doctor", suite, "--results", tmpdir)
      assert_equal 0, status, "rackbench run failed:\n#{out}\n#{err}"
    end

    def report(format) = run_cli("report", "--results", tmpdir, "--format", format)[1]

    def test_every_format_prints_each_figure_inside_its_own_interval
      measure_a_run
      assert_json_figures_inside_their_intervals
      assert_table_markdown_and_html_print_no_figure_outside_its_brackets
    end

    def assert_json_figures_inside_their_intervals
      cells = JSON.parse(report("json"))["cells"]
      assert_equal 4, cells.size
      cells.each do |c|
        low, high = c["requests_per_s_ci"]
        assert_operator low, :<=, c["requests_per_s"], c["label"]
        assert_operator c["requests_per_s"], :<=, high, c["label"]
        next unless c["latency_p99_ci_ms"]

        low, high = c["latency_p99_ci_ms"]
        assert_operator low, :<=, c["latency_p99_ms"], "#{c["label"]} #{c["path"]} p99"
        assert_operator c["latency_p99_ms"], :<=, high, "#{c["label"]} #{c["path"]} p99"
      end
      assert(cells.any? { |c| c["latency_p99_ci_ms"] }, "some cell had the 1,000 requests a start that a p99 interval needs")
    end

    def assert_table_markdown_and_html_print_no_figure_outside_its_brackets
      %w[table markdown html].each do |format|
        text = report(format)
        text = File.read(text.strip) if format == "html" # the html format writes report.html and prints its path
        pairs = text.scan(/(\d[\d,]*(?:\.\d+)?) \[(\d[\d,]*(?:\.\d+)?), (\d[\d,]*(?:\.\d+)?)\]/)
        assert_operator pairs.size, :>=, 4, "#{format} prints figures with intervals"
        pairs.each do |figure, low, high|
          value, lo, hi = [figure, low, high].map { |t| Float(t.delete(",")) }
          slack = (value * 0.005) + 0.01 # both printed rounded
          assert_operator lo, :<=, value + slack, "#{format}: #{figure} [#{low}, #{high}]"
          assert_operator value, :<=, hi + slack, "#{format}: #{figure} [#{low}, #{high}]"
        end
      end
    end
  end
end
