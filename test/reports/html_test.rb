# frozen_string_literal: true

require "test_helper"
require "json"
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

    def setup
      assert_nil Charts::Renderer.unavailable_reason, "bin/setup installs the chart library"
      flunk "#{CHROMIUM} is missing (`bin/setup chromium` installs Debian's chromium)" unless File.executable?(CHROMIUM)
    end

    class << self
      attr_accessor :pages
    end

    # The first test to draw a page waits for the run (6 server starts, 12
    # windows) and for Chromium: at a load average of 17-22 on this 2-core
    # machine that took 167 s, and the same file with 0.5 s warm-ups ran past 240 s.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 480].max

    # The two pages this file opens in Chromium, checked in one browser
    # (check_page.mjs takes both) and made once a file: {run: the puma vs
    # thin run's page, seed: the stored seed run's}, each [what the browser
    # saw, the html, its screenshot].
    def pages
      self.class.pages ||= begin
        dir = Dir.mktmpdir("rackbench-html")
        Minitest.after_run { FileUtils.rm_rf(dir) }
        FileUtils.mkdir_p(ARTIFACTS)
        pages = { run: measure_puma_and_thin(dir), seed: write_seed_page(dir) }
        shots = { run: "html_report_puma_vs_thin.png", seed: "html_report.png" }.transform_values { |f| File.join(ARTIFACTS, f) }
        seen = check_in_chromium(dir, pages.keys.flat_map { |k| [pages[k], shots[k]] })
        pages.keys.zip(seen).to_h { |k, report| [k, [report, File.read(pages[k]), shots[k]]] }
      end
    end

    # A real run, in this process (CLI.start): its html page's path. Its
    # ratios come from the windows in turns (ratio: turns): on a sleeping
    # endpoint the servers idle, so a duet window a block would be measured
    # once and then set aside unread. The warm-up is the short one later
    # windows of a start get (a sleep is warm at once).
    def measure_puma_and_thin(dir)
      suite = File.join(dir, "puma-vs-thin.yml")
      File.write(suite, <<~YAML)
        name: puma-vs-thin
        app: rack
        endpoints: [/sleep/50]
        concurrency: [4, 16]
        duration_s: 1.5
        warmup_s: 0.25
        repeats: 3
        deployments: 3
        ratio: turns
        servers:
          - {server: puma, threads: 16}
          - {server: thin}
      YAML
      results = File.join(dir, "results")
      status, out, err = run_cli("run", suite, "--results", results)
      assert_equal 0, status, "rackbench run failed:\n#{out}\n#{err}"
      run_cli("report", "--results", results, "--format", "html")[1].strip
    end

    def write_seed_page(dir)
      File.join(dir, Reports::Html.file_name).tap do |page|
        File.write(page, Reports.fetch("html").new(stored_run(article: article, dir: dir), stored_cells).render)
      end
    end

    def test_a_real_run_of_puma_with_16_threads_against_thin_on_sleep_50_names_puma_the_winner_above_its_chart
      report, = drawn(:run)

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
      report, html = drawn(:seed)

      expected = Charts::Page.new(stored_run(article: article), stored_cells).all.map { |c| c["name"] }
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

    # Opens the pages in one Chromium (check_page.mjs: a JSON line a page
    # and its screenshot); what it saw of each, in order.
    def check_in_chromium(dir, pages_and_screenshots)
      pages_and_screenshots.each_slice(2) { |_, screenshot| FileUtils.rm_f(screenshot) }
      argv = ["node", File.join(__dir__, "check_page.mjs"), File.join(dir, "chromium"), *pages_and_screenshots]
      out, status = Supervisor.new.capture(argv, name: "chromium", log_path: File.join(dir, "chromium.log"), timeout_s: 150)
      assert status.success?, "check_page.mjs failed:\n#{out}"
      seen = out.lines.grep(/\A\{/).map { |line| JSON.parse(line) }
      assert_equal pages_and_screenshots.size / 2, seen.size, out
      seen
    end

    # What every page must hold, as Chromium drew it: [what it saw, the html].
    def drawn(page)
      report, html, screenshot = pages.fetch(page)
      assert_empty report["errors"]
      refute_empty report["charts"]
      report["charts"].each do |chart|
        assert_operator chart["width"], :>, 100, "#{chart["name"]} has no width"
        assert_operator chart["height"], :>, 50, "#{chart["name"]} has no height"
        assert_operator chart["marks"], :>, 0, "#{chart["name"]} drew no marks"
      end
      assert_operator File.size(screenshot), :>, 10_000
      assert_nothing_left
      [report, html]
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
