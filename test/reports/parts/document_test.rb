# frozen_string_literal: true

require "test_helper"
require "csv"
require "json"
require_relative "../seed_fixtures"
require "rackbench/charts/renderer"

module Rackbench
  module Reports
    # The report is built once as a document of sections; the table,
    # markdown, csv, html and json formats each write all of it.
    class DocumentTest < Minitest::Test
      include SeedFixtures

      def cells
        [cell("puma x0:16", { "server" => "puma", "threads" => 16 }, rps: 2000.0),
         cell("unicorn x4", { "server" => "unicorn", "workers" => 4 }, rps: 1000.0, spread: [0.95, 1.0, 1.05]),
         cell("thin", { "server" => "thin" }, status: "failed", reason: "thin exited before it was ready"),
         mix_cell("puma x0:5")]
      end

      # The report of format, with a section no format knows about added to its document.
      def render_with_a_new_section(format)
        report = Reports.fetch(format).new(stored_run, cells)
        queue = Grid.new(%w[Config queued], [["puma x0:16", "17"]])
        report.document.sections << Document::Section.new("queue", "Queue depth", [queue, Document::Text.list(["a note"])])
        report.render
      end

      def test_the_document_holds_what_ran_then_the_sections_in_reading_order
        document = Reports.fetch("table").new(stored_run, cells).document
        assert_match "Run 7: suite seed-test", document.heading.first
        assert_equal %w[results results tail mix verdicts failures warnings], document.sections.map(&:id)
        assert_equal %w[hello mix], document.sections.first(2).map(&:title)
        assert_match "puma x0:16 faster", document.lines_of("verdicts").first
        assert_equal ["FAILED thin (hello c=10): thin exited before it was ready"], document.lines_of("failures")
      end

      def test_a_new_section_shows_in_the_table
        text = render_with_a_new_section("table")
        assert_match(/^Queue depth\nConfig      queued\n-+  -+\npuma x0:16      17\n\n  - a note\n/, text)
      end

      def test_a_new_section_shows_in_markdown
        md = render_with_a_new_section("markdown")
        assert_includes md, "#### Queue depth\n\n| Config | queued |\n| :--- | ---: |\n| puma x0:16 | 17 |\n\n- a note\n"
      end

      def test_a_new_section_shows_in_json
        sections = JSON.parse(render_with_a_new_section("json"))["report"]["sections"]
        queue = sections.find { |s| s["id"] == "queue" }
        assert_equal({ "columns" => %w[Config queued], "rows" => [["puma x0:16", "17"]] }, queue["parts"][0]["table"])
        assert_equal ["a note"], queue["parts"][1]["lines"]
      end

      def test_a_new_section_shows_in_html
        assert_nil Charts::Renderer.unavailable_reason, "bin/setup installs the chart library"
        html = render_with_a_new_section("html")
        assert_includes html, '<h3>Queue depth</h3><table><thead><tr><th class="left">Config</th><th>queued</th>'
        assert_includes html, '<td class="left">puma x0:16</td><td>17</td></tr></tbody></table><ul><li>a note</li></ul>'
      end

      def test_csv_leads_with_one_row_per_cell_for_other_tools
        rows = CSV.parse(render_with_a_new_section("csv").split("\n\n").first, headers: true)
        assert_equal(["puma x0:16", "unicorn x4", "thin", "puma x0:5"], rows.map { |r| r["server"] })
      end

      def test_a_new_section_shows_in_csv_as_a_block_of_its_own
        blocks = render_with_a_new_section("csv").split("\n\n")
        assert_includes blocks, "# Queue depth\nConfig,queued\npuma x0:16,17\n# a note\n"
        assert_includes blocks, "# failures\n# FAILED thin (hello c=10): thin exited before it was ready",
                        "the failures read as in every other format"
      end

      def test_every_section_but_the_per_endpoint_tables_follows_the_cells_in_csv
        document = Reports.fetch("csv").new(stored_run, cells).document
        titles = render_with_a_new_section("csv").scan(/^# (.+)$/).flatten
        document.sections.reject { |s| s.id == "results" }.each do |s|
          assert_includes titles, s.title || s.id, "the #{s.id} section is in the csv"
        end
      end

      def test_a_mix_shows_its_members_in_every_format_that_writes_the_document
        title = "mix: puma x0:5 c=4 (per endpoint)"
        assert_match(/^#{Regexp.escape(title)}\nendpoint +weight/, render_with_a_new_section("table"))
        assert_includes render_with_a_new_section("markdown"), "#### #{title}\n\n| endpoint | weight |"
        json = JSON.parse(render_with_a_new_section("json"))
        assert_equal title, json["report"]["sections"].find { |s| s["id"] == "mix" }["title"]
        assert_nil Charts::Renderer.unavailable_reason, "bin/setup installs the chart library"
        assert_includes render_with_a_new_section("html"), "<h3>#{title}</h3><table>"
      end
    end
  end
end
