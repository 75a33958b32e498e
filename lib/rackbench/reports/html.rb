# frozen_string_literal: true

require "cgi"
require "json"
require_relative "../article/summary"
require_relative "../charts/specs"
require_relative "../charts/renderer"

module Rackbench
  module Reports
    # One self-contained HTML page for a run: provenance, the article's
    # conclusion and the claims checked, a table per workload, the tables in
    # the article's own shapes, and the charts, drawn in the browser by the
    # Vega and Vega-Lite builds inlined into the page (no network needed).
    # `rackbench report RUN --format html` writes it into the run's folder.
    #
    #   rackbench report RUN --format html   # => .../runs/RUN/report.html
    class Html < Base
      def self.file_name = "report.html"

      COLUMNS = [["Server / config", :label], ["Conc.", nil], ["req/s", :requests_per_s], ["mean ms", :latency_mean_ms],
                 ["p99 ms", :latency_p99_ms], ["longest ms", :longest_ms], ["errors n/tot", :errors_n_tot],
                 ["memory MB", :memory_mb], ["server cores busy", :server_load]].freeze

      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        charts = Charts::Specs.new(run, cells).all
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8">
          <title>rackbench run #{run["id"]}: #{h(run["suite"])}</title>
          <style>#{STYLE}</style></head>
          <body>
          <h1>rackbench run #{run["id"]}: #{h(run["suite"])}</h1>
          <p class="provenance">#{heading.map { |l| h(l) }.join("<br>")}</p>
          #{article_section(summary)}
          #{verdicts_section(summary)}
          <h2>Charts</h2>
          #{charts.map.with_index { |c, i| %(<figure class="chart" id="chart-#{i}" data-name="#{h(c["name"])}"></figure>) }.join("\n")}
          <h2>Results</h2>
          #{summary.groups.map { |group, list| table(summary.title(group), list) }.join("\n")}
          #{shaped_tables(summary)}
          <script type="application/json" id="rackbench-charts">#{json(charts.map { |c| c["spec"] })}</script>
          #{Charts::Renderer.browser_scripts.map { |js| "<script>#{js.gsub("</script", "<\\/script")}</script>" }.join("\n")}
          <script>#{DRAW}</script>
          </body></html>
        HTML
      end

      private

      def article_section(summary)
        article = summary.article
        return "" if article.empty? && summary.scaled_text.nil?

        parts = []
        parts << "<h2>#{h(article["title"])}</h2><p class=\"seed\">Seed #{h(article["seed"])}</p>" if article["title"]
        parts << %(<p class="scaled">#{h(summary.scaled_text)}</p>) if summary.scaled_text
        parts << "<blockquote>#{h(article["found"]).gsub(/\n\s*\n/, "</p><p>")}</blockquote>" if article["found"]
        parts.join("\n")
      end

      def verdicts_section(summary)
        verdicts = summary.verdicts
        return "" if verdicts.empty?

        items = verdicts.map do |v|
          %(<li class="#{v["answer"].tr(" ", "-")}"><strong>#{h(v["says"])}</strong>: #{h(v["answer"])}, #{h(v["detail"])}</li>)
        end
        "<h2>This run against the article</h2><ul class=\"verdicts\">#{items.join}</ul>"
      end

      def table(title, list)
        head = COLUMNS.map { |name, _| "<th>#{h(name)}</th>" }.join
        rows = list.map do |f|
          unless f.ok?
            next %(<tr class="failed"><td>#{h(f.label)}</td><td>#{f.cell["concurrency"]}</td><td colspan="#{COLUMNS.size - 2}">not measured: #{h(f.reason)}</td></tr>)
          end

          cells = COLUMNS.map { |_, reader| reader ? f.public_send(reader) : f.cell["concurrency"] }
          "<tr>#{cells.map { |v| "<td>#{h(v.is_a?(Float) ? v.round(2) : v)}</td>" }.join}</tr>"
        end
        "<h3>#{h(title)}</h3><table><thead><tr>#{head}</tr></thead><tbody>#{rows.join}</tbody></table>"
      end

      def shaped_tables(summary)
        formats = summary.article["tables"] || []
        formats.map do |format|
          text = Reports.fetch(format).new(run, cells).render
          "<details><summary>As the article prints it (#{h(format)})</summary><pre>#{h(text)}</pre></details>"
        end.join("\n")
      end

      def h(value) = CGI.escapeHTML(value.to_s)

      # JSON inside a script element: no "</" may close it early.
      def json(value) = JSON.generate(value).gsub("</", "<\\/")

      STYLE = <<~CSS
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        tr.failed td { color: #a33; }
        .provenance, .seed { color: #555; font-size: 12px; }
        .scaled { background: #fff6d6; padding: 4px 8px; }
        blockquote { border-left: 4px solid #ccc; margin: 0; padding: 0 1em; color: #444; }
        ul.verdicts li.yes strong { color: #176317; } ul.verdicts li.no strong { color: #a33; }
        figure.chart { margin: 1em 0; min-height: 40px; }
        pre { background: #f6f6f6; padding: 8px; overflow-x: auto; }
      CSS

      # Draws every chart into its figure; the page's dataset says when all are done.
      DRAW = <<~JS
        (async function () {
          const specs = JSON.parse(document.getElementById("rackbench-charts").textContent);
          for (let i = 0; i < specs.length; i++) {
            const view = new vega.View(vega.parse(vegaLite.compile(specs[i]).spec), {
              renderer: "svg", container: "#chart-" + i, hover: true
            });
            await view.runAsync();
          }
          document.body.dataset.chartsDrawn = String(specs.length);
        })().catch(function (error) { console.error("rackbench charts: " + error); });
      JS
    end

    register("html", Html)
  end
end
