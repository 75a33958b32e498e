# frozen_string_literal: true

require "test_helper"
require "json"
require_relative "seed_fixtures"
require "rackbench/charts/renderer"

module Rackbench
  # The html report opened in headless Chromium: no console errors, no network
  # request, and every chart drawn with marks in it. The screenshot is kept in
  # test/artifacts/ (git-ignored) for a person to look at.
  class HtmlReportTest < Minitest::Test
    include SeedFixtures

    ARTIFACTS = File.join(ROOT, "test", "artifacts")
    CHROMIUM = ENV.fetch("CHROMIUM", "/usr/bin/chromium")

    def setup
      skip "charts: #{Charts::Renderer.unavailable_reason}" if Charts::Renderer.unavailable_reason
      flunk "#{CHROMIUM} is missing (bin/setup installs Debian's chromium)" unless File.executable?(CHROMIUM)
    end

    def stored_cells
      series = (1..6).map { |t| { "t_s" => t.to_f, "requests" => t < 3 ? 400 : 900 } }
      [10, 100].flat_map do |c|
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, concurrency: c, rps: 9.0 * c, series: series),
         cell("unicorn x4", { "server" => "unicorn", "workers" => 4 }, concurrency: c, rps: 7.5 * c, series: series),
         cell("torquebox", { "server" => "torquebox" }, concurrency: c, status: "failed",
                                                        reason: "torquebox cannot run here: no jruby")]
      end
    end

    def article
      { "title" => "Benchmarking <TorqueBox>", "seed" => "000", "found" => "TorqueBox led.", "tables" => %w[three_column],
        "charts" => %w[concurrency timeline bars tuning],
        "claims" => [{ "says" => "Puma beats Unicorn", "a" => { "server" => "puma" }, "b" => { "server" => "unicorn" }, "endpoint" => "hello" }] }
    end

    def test_the_page_opens_in_chromium_with_every_chart_drawn_and_no_console_error
      run = stored_run(article: article, dir: tmpdir)
      html = Reports.fetch("html").new(run, stored_cells).render
      page = File.join(tmpdir, Reports::Html.file_name)
      File.write(page, html)
      FileUtils.mkdir_p(ARTIFACTS)
      screenshot = File.join(ARTIFACTS, "html_report.png")
      FileUtils.rm_f(screenshot)

      out, status = Supervisor.new.capture(["node", File.join(__dir__, "check_page.mjs"), page, screenshot, File.join(tmpdir, "chromium")],
                                           name: "chromium", log_path: File.join(tmpdir, "chromium.log"), timeout_s: 90)
      assert status.success?, "check_page.mjs failed:\n#{out}"
      report = JSON.parse(out.lines.grep(/\A\{/).last)

      assert_empty report["errors"]
      expected = Charts::Specs.new(run, stored_cells).all.map { |s| s["name"] }
      assert_equal(expected, report["charts"].map { |c| c["name"] })
      assert_operator expected.size, :>=, 8
      report["charts"].each do |chart|
        assert_operator chart["width"], :>, 100, "#{chart["name"]} has no width"
        assert_operator chart["height"], :>, 100, "#{chart["name"]} has no height"
        assert_operator chart["marks"], :>, 0, "#{chart["name"]} drew no marks"
      end
      assert_operator File.size(screenshot), :>, 10_000
      assert_includes html, "Benchmarking &lt;TorqueBox&gt;"
      assert_includes html, "Puma beats Unicorn</strong>: yes, 1.2x"
      refute_match(/<script[^>]+src=/, html)
      assert_nothing_left
    end
  end
end
