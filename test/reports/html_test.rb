# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require_relative "seed_fixtures"
require "rackbench/charts/renderer"

module Rackbench
  # The html report opened in headless Chromium (check_page.mjs): no console
  # error, no network request, every chart drawn as an SVG with marks in it,
  # and the summary at the top naming the winner. The screenshots are kept in
  # test/artifacts/ (git-ignored) for a person to look at.
  class HtmlReportTest < Minitest::Test
    include SeedFixtures

    ARTIFACTS = File.join(ROOT, "test", "artifacts")
    CHROMIUM = ENV.fetch("CHROMIUM", "/usr/bin/chromium")
    BIN = File.join(ROOT, "bin", "rackbench")

    def setup
      assert_nil Charts::Renderer.unavailable_reason, "bin/setup installs the chart library"
      flunk "#{CHROMIUM} is missing (`bin/setup chromium` installs Debian's chromium)" unless File.executable?(CHROMIUM)
    end

    def test_a_real_run_of_puma_with_16_threads_against_thin_on_sleep_50_names_puma_the_winner_above_its_chart
      suite = File.join(tmpdir, "puma-vs-thin.yml")
      File.write(suite, <<~YAML)
        name: puma-vs-thin
        app: rack
        endpoints: [/sleep/50]
        concurrency: [4, 16]
        duration_s: 1.5
        warmup_s: 0.5
        repeats: 3
        deployments: 3
        servers:
          - {server: puma, threads: 16}
          - {server: thin}
      YAML
      out, err, status = Open3.capture3(BIN, "run", suite, "--results", tmpdir)
      assert status.success?, "rackbench run failed:\n#{out}\n#{err}"
      page, = Open3.capture3(BIN, "report", "--results", tmpdir, "--format", "html")

      report = check(page.strip, "html_report_puma_vs_thin.png")

      # thin serves one 50 ms sleep at a time (20 req/s); puma's 16 threads serve 4 and 16 at once.
      [4, 16].each { |c| assert_match(%r{/sleep/50 c=#{c} puma x0:16 faster than thin, \d+\.\d\dx \[}, report["summary"]) }
      refute_match(/thin faster/, report["summary"])
      assert_equal "rack-sleep-50-throughput", report["lead"]
      lead = report["charts"].find { |c| c["name"] == report["lead"] }
      assert_operator lead["bands"], :>=, 2, "a CI band per config around the throughput lines"
      names = report["charts"].map { |c| c["name"] }
      assert_includes names, "rack-sleep-50-at-concurrency-16-percentiles"
      assert_includes names, "rack-sleep-50-at-concurrency-16-timeline"
      assert_includes names, "rack-sleep-50-at-concurrency-16-timeline-p99"
    end

    def test_a_stored_seed_run_shows_each_failed_server_once_and_draws_every_chart_its_shape_calls_for
      run = stored_run(article: article, dir: tmpdir)
      html = Reports.fetch("html").new(run, stored_cells).render
      page = File.join(tmpdir, Reports::Html.file_name)
      File.write(page, html)

      report = check(page, "html_report.png")

      expected = Charts::Page.new(run, stored_cells).all.map { |c| c["name"] }
      assert_equal expected.sort, report["charts"].map { |c| c["name"] }.sort
      assert_equal 1, report["summary"].scan("torquebox cannot run here").size, report["summary"]
      assert_match(/torquebox \(hello c=10, hello c=100\)/, report["summary"])
      assert_match(/Puma beats Unicorn: yes, 1\.2x/, report["summary"])
      assert_includes html, "Benchmarking &lt;TorqueBox&gt;"
      refute_match(/<script[^>]+src=/, html)
      Charts::Renderer.browser_scripts.each do |js|
        assert_equal 1, html.scan(js[js.size / 2, 300]).size, "each chart library is inlined once"
      end
    end

    def test_a_verdict_from_one_start_each_says_there_is_no_interval_rather_than_a_difference
      cells = [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, rps: 300.0, spread: [1.0]),
               cell("thin", { "server" => "thin" }, rps: 20.0, spread: [1.0])]
      html = Reports.fetch("html").new(stored_run, cells).render
      assert_match(/puma x0:16 vs thin: 15\.00x \(one start each: no interval, so no verdict\)/, html)
      refute_match(/faster|equivalent/, html[html.index("<h2>Verdicts")..html.index("</ul>")])
    end

    private

    # Opens the page in Chromium and checks what every page must hold.
    def check(page, screenshot_name)
      FileUtils.mkdir_p(ARTIFACTS)
      screenshot = File.join(ARTIFACTS, screenshot_name)
      FileUtils.rm_f(screenshot)
      argv = ["node", File.join(__dir__, "check_page.mjs"), page, screenshot, File.join(tmpdir, "chromium")]
      out, status = Supervisor.new.capture(argv, name: "chromium", log_path: File.join(tmpdir, "chromium.log"), timeout_s: 150)
      assert status.success?, "check_page.mjs failed:\n#{out}"
      report = JSON.parse(out.lines.grep(/\A\{/).last)
      assert_empty report["errors"]
      refute_empty report["charts"]
      report["charts"].each do |chart|
        assert_operator chart["width"], :>, 100, "#{chart["name"]} has no width"
        assert_operator chart["height"], :>, 50, "#{chart["name"]} has no height"
        assert_operator chart["marks"], :>, 0, "#{chart["name"]} drew no marks"
      end
      assert_operator File.size(screenshot), :>, 10_000
      assert_nothing_left
      report
    end

    def stored_cells
      series = (1..6).map { |t| { "t_s" => t.to_f, "requests" => t < 3 ? 400 : 900, "p99_us" => 20_000 } }
      histogram = [[1000, 500], [2000, 300], [5000, 150], [20_000, 49], [90_000, 1]]
      [10, 100].flat_map do |c|
        shared = { concurrency: c, series: series, histogram: histogram }
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, rps: 9.0 * c, **shared),
         cell("unicorn x4", { "server" => "unicorn", "workers" => 4 }, rps: 7.5 * c, **shared),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed",
                                                        reason: "torquebox cannot run here: no jruby")]
      end
    end

    def article
      { "title" => "Benchmarking <TorqueBox>", "seed" => "000", "found" => "TorqueBox led.", "tables" => %w[three_column],
        "charts" => %w[concurrency timeline bars tuning],
        "claims" => [{ "says" => "Puma beats Unicorn", "a" => { "server" => "puma" }, "b" => { "server" => "unicorn" },
                       "endpoint" => "hello" }] }
    end
  end
end
