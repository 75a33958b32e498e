# frozen_string_literal: true

require "cgi"
require "json"
require_relative "../article/summary"
require_relative "../charts/page"
require_relative "../charts/renderer"
require_relative "../charts/tune"
require_relative "parts/claim_text"

module Rackbench
  module Reports
    # One self-contained HTML page serializing the report document
    # (RunDocument) answer first: the document's summary sections (a tune
    # run's answer, the verdicts: who is faster, by how much, with a 95 % CI,
    # or "no difference detected"; the cells not measured, once per server;
    # the warnings with their advice), a seed suite's claims and what ran,
    # beside the chart that answers it. Then every other section in the
    # document's order, each with the charts that illustrate it (a rate
    # sweep's knees, the why split), then the charts no section holds
    # (Charts::Page: scaling, bars, each cell's percentiles and timelines,
    # memory), and for a seed suite the article's tables and charts. The
    # charts are drawn in the browser by the Vega and Vega-Lite builds,
    # inlined once (no network needed).
    #
    #   rackbench report RUN --format html   # => .../runs/RUN/report.html
    class Html < Base
      def self.file_name = "report.html"

      def render
        @figures = []
        page = Charts::Page.new(run, cells)
        tune = Charts::Tune.new(run, cells)
        summary = Rackbench::Article::Summary.new(run, cells)
        # A tune run's knee chart draws its probes; a rate sweep's first chart leads the answer.
        sweeps = tune.charts.empty? ? page.rate_sweeps.drop(1) : []
        charts = { "rate_sweep" => sweeps, "explain" => page.why.flat_map(&:last) }
        details = document.details.map { |s| section_html(s, charts.delete(s.id) || []) }
        details.unshift(%(<h2 id="results">Results</h2>)) unless details.empty?
        body = if tune.charts.empty?
                 [answer(page, summary), *details, scaling_section(page), bars_section(page), cells_section(page),
                  memory_section(page), article_section(page, summary)]
               else # a tune run: its answer and charts; the probes are the evidence below
                 [answer(nil, summary), %(<div class="grid">#{tune.charts.map { |c| figure(c) }.join}</div>), *details]
               end.join("\n")
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8">
          <title>rackbench run #{run["id"]}: #{h(run["suite"])}</title>
          <style>#{STYLE}</style></head>
          <body>
          <h1>#{h(run["suite"])} <span class="run">rackbench run #{run["id"]}, #{h(run["started_at"])}</span></h1>
          #{body}
          <script type="application/json" id="rackbench-charts">#{json(@figures.map { |c| c["spec"] })}</script>
          #{Charts::Renderer.browser_scripts.map { |js| "<script>#{js.gsub("</script", "<\\/script")}</script>" }.join("\n")}
          <script>#{DRAW}</script>
          </body></html>
        HTML
      end

      SHORT_REASON = 160

      STYLE = <<~CSS
        body { font: 14px/1.45 system-ui, sans-serif; margin: 1em auto; max-width: 1240px; color: #222; padding: 0 12px; }
        h1 { font-size: 20px; margin: 0 0 0.4em; } h1 .run { color: #666; font-size: 13px; font-weight: normal; }
        h2 { font-size: 16px; margin: 1.2em 0 0.3em; } h3 { font-size: 14px; margin: 1em 0 0.2em; }
        .answer { display: grid; grid-template-columns: minmax(0, 1fr) 600px; gap: 16px; align-items: start; }
        .summary h2:first-child { margin-top: 0; }
        .note, .seed, .what-ran summary { color: #666; font-size: 12px; }
        ul { margin: 0.2em 0; padding-left: 1.2em; }
        ul.verdicts .where { color: #555; font-family: monospace; }
        ul.verdicts li.inconclusive, ul.verdicts li.equivalent { color: #555; } strong.winner { color: #176317; }
        ul.claims li.yes strong, ul.claims li.equivalent strong { color: #176317; } ul.claims li.no strong { color: #a33; }
        ul.warnings li { color: #7a4b00; } ul.failures li { color: #a33; }
        details pre { white-space: pre-wrap; font-size: 12px; }
        .grid { display: flex; flex-wrap: wrap; gap: 8px 24px; }
        figure.chart { margin: 0.5em 0; min-height: 40px; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
        th.left, td.left { text-align: left; }
        .scaled { background: #fff6d6; padding: 4px 8px; }
        blockquote { border-left: 4px solid #ccc; margin: 0; padding: 0 1em; color: #444; }
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

      private

      # The top of the page: the document's summary sections, the article's
      # claims and what ran, and the chart that shows the answer (page: nil for a tune run).
      def answer(page, summary)
        lead = page&.lead
        <<~HTML
          <div class="answer">
          <section class="summary" id="summary">
          #{document.summary.map { |s| summary_html(s) }.join("\n")}
          #{claims_list(summary)}
          #{what_ran}
          </section>
          #{%(<section class="lead">#{figure(lead)}</section>) if lead}
          </div>
        HTML
      end

      # A summary section: the verdicts with the winner named first, the cells
      # not measured from the section's data, the others as any section.
      def summary_html(section)
        case section.id
        when "verdicts" then verdicts_list
        when "failures" then failures_list(section.data)
        when "warnings" then %(<h2>Warnings</h2><ul class="warnings">#{items(section.parts.flat_map(&:lines))}</ul>)
        else parts_html(section.parts, heading: "h2")
        end
      end

      def items(lines) = lines.map { |l| "<li>#{h(l)}</li>" }.join

      def verdicts_list
        list = verdicts

        items = list.map do |v|
          c = v["comparison"]
          size = cells.count { |m| m.ok? && m.endpoint == v["endpoint"] && m.concurrency == v["concurrency"] }
          where = %(<span class="where">#{h(v["endpoint"])} c=#{v["concurrency"]}</span>)
          next %(<li class="latency">#{h(v["text"])}</li>) if v["comparisons"]

          %(<li class="#{c.verdict}">#{where} #{verdict_html(c, size)}</li>)
        end
        note = %(<p class="note">Throughput of good responses, then latency: ratios with 95 % intervals over server starts.</p>)
        %(<h2>Verdicts</h2>#{note}<ul class="verdicts">#{items.join}</ul><p class="note">#{h(verdicts_note)}</p>)
      end

      # The fastest config named first when it is faster: "puma x0:16 faster
      # than thin, 4.00x [3.90, 4.10]"; every other outcome in its own words.
      def verdict_html(comparison, size)
        return h(comparison.to_s) unless comparison.verdict == :a_better && comparison.throughput_metric?

        a = "<strong class=\"winner\">#{h(comparison.a.label)}</strong>"
        of = size > 2 ? " (fastest of #{size})" : ""
        "#{a} faster than #{h(comparison.b.label)}#{of}, #{comparison.format_ratio(comparison.ratio)} #{comparison.interval_text}"
      end

      def claims_list(summary)
        answers = summary.answers
        return "" if answers.empty?

        items = answers.map do |answer|
          text = ClaimText.new(answer)
          %(<li class="#{answer.outcome.to_s.tr("_", "-")}"><strong>#{h(answer.says)}</strong>: #{h(text.word)}, ) +
            %(#{h(text.detail)}</li>)
        end
        title = summary.article["title"] ? " (#{h(summary.article["title"])})" : ""
        %(<h2>Against the article#{title}</h2><ul class="claims">#{items.join}</ul>)
      end

      # One line per server that was not measured (the failures section's
      # data, Failures), with its reason once (the first line, cut at
      # SHORT_REASON characters; the rest one click away).
      def failures_list(data)
        items = data.map do |d|
          f = Failures::Failure.new(*d.values_at("server", "reason", "labels", "cells"))
          short = f.short_reason
          short = "#{short[0, SHORT_REASON - 3]}..." if short.length > SHORT_REASON
          detail = f.reason == short ? "" : "<details><summary>full reason</summary><pre>#{h(f.reason)}</pre></details>"
          where = h(f.where).sub(h(f.server)) { "<strong>#{h(f.server)}</strong>" }
          %(<li title="#{h(f.labels.join(", "))}">#{where}: #{h(short)}#{detail}</li>)
        end
        %(<h2>Not measured</h2><ul class="failures">#{items.join}</ul>)
      end

      def what_ran
        servers = cells.select(&:ok?).uniq(&:label).map do |m|
          version = h(m.server_version || "version unknown")
          "<li>#{h(m.label)}: #{version} <code>#{h(shell_line(m.server_command))}</code></li>"
        end
        engine = shell_line(cells.find(&:ok?)&.dig("engine_command"))
        <<~HTML
          <details class="what-ran"><summary>What ran: #{cells.size} cells, #{cells.map(&:label).uniq.size} configs; settings, machine, versions, commands</summary>
          <p>#{document.heading.map { |l| h(l) }.join("<br>")}</p>
          <ul>#{servers.join}</ul>
          <p>Load, e.g.: <code>#{h(engine)}</code></p>
          </details>
        HTML
      end

      def shell_line(argv) = argv.is_a?(Array) ? argv.join(" ") : argv.to_s

      def scaling_section(page)
        rest = page.scaling.flatten.drop(1)
        return "" if rest.empty?

        %(<h2 id="scaling">Throughput and p99 against concurrency</h2><div class="grid">#{rest.map { |c| figure(c) }.join}</div>)
      end

      def bars_section(page)
        rest = page.bars.reject { |c| c.equal?(page.lead) }
        return "" if rest.empty?

        %(<h2 id="bars">Throughput</h2><div class="grid">#{rest.map { |c| figure(c) }.join}</div>)
      end

      def cells_section(page)
        return "" if page.cells.empty?

        groups = page.cells.map do |g|
          %(<h3>#{h(g["title"])}</h3><div class="grid">#{g["charts"].map { |c| figure(c) }.join}</div>)
        end
        %(<h2 id="cells">Each cell: latency by percentile and per-second timeline</h2>#{groups.join("\n")})
      end

      def memory_section(page)
        return "" if page.memory.empty?

        %(<h2 id="memory">Memory</h2><div class="grid">#{page.memory.map { |c| figure(c) }.join}</div>)
      end

      # A section of the document: its title, the charts that illustrate it
      # (before the first of its kind: the rate sweeps' knees but the lead, the
      # why split's), its tables and lines.
      def section_html(section, charts)
        grid = charts.empty? ? "" : %(<div class="grid">#{charts.map { |c| figure(c) }.join}</div>)
        "#{"<h3>#{h(section.title)}</h3>" if section.title}#{grid}#{parts_html(section.parts)}"
      end

      def parts_html(parts, heading: nil)
        parts.map do |part|
          next part.html if part.is_a?(Grid)

          case part.style
          when :list then "<ul>#{items(part.lines)}</ul>"
          when :strong then strong_html(part.lines.join(" "), heading)
          else "<p>#{part.lines.map { |l| h(l) }.join("<br>")}</p>"
          end
        end.join
      end

      # A line to stress: a heading of its own in the summary (a tune run's recommendation), bold elsewhere.
      def strong_html(line, heading) = heading ? "<#{heading}>#{h(line)}</#{heading}>" : "<p><strong>#{h(line)}</strong></p>"

      def article_section(page, summary)
        article = summary.article
        parts = []
        parts << %(<p class="scaled">#{h(summary.scaled_text)}</p>) if summary.scaled_text
        parts << %(<p class="cpus">#{h(summary.cpus_text)}</p>) if summary.cpus_text
        parts << "<blockquote>#{h(article["found"]).gsub(/\n\s*\n/, "</p><p>")}</blockquote>" if article["found"]
        parts << %(<div class="grid">#{page.article.map { |c| figure(c) }.join}</div>) unless page.article.empty?
        (article["tables"] || []).each do |format|
          text = Reports.fetch(format).new(run, cells).render
          parts << "<details><summary>As the article prints it (#{h(format)})</summary><pre>#{h(text)}</pre></details>"
        end
        return "" if parts.empty?

        title = article["title"] ? "#{h(article["title"])} <span class=\"seed\">seed #{h(article["seed"])}</span>" : "The article"
        %(<h2 id="article">#{title}</h2>#{parts.join("\n")})
      end

      # A placeholder the page's script draws the chart into.
      def figure(chart)
        @figures << chart
        %(<figure class="chart" id="chart-#{@figures.size - 1}" data-name="#{h(chart["name"])}"></figure>)
      end

      def h(value) = CGI.escapeHTML(value.to_s)

      # JSON inside a script element: no "</" may close it early.
      def json(value) = JSON.generate(value).gsub("</", "<\\/")
    end

    register("html", Html)
  end
end
