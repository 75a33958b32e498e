# frozen_string_literal: true

require_relative "../article/summary"
require_relative "frame"

module Rackbench
  # Charts of a stored run, drawn by Vega-Lite (vendored from npm in this
  # folder, see package.json): Specs builds the chart specs, Renderer turns
  # them into SVG files with Node, the html report inlines them with Vega's JS.
  module Charts
    # The chart specs for one run, in the shapes of the seeds' charts. Created
    # by the svg and html reports. The kinds a suite asks for (article: charts:):
    #
    #   concurrency  req/s and mean latency against concurrency, a line per config (003)
    #   timeline     req/s over time from the native engine's series, a line per config (000);
    #                {kind: timeline, metric: p99_ms}: each second's p99 latency instead
    #   bars         a bar per config for one metric (default req/s) (001, 002, 004)
    #   tuning       configs on the x axis, a bar per endpoint, and the reverse, at the highest concurrency (003)
    #
    #   Specs.new(run, cells).all  # => [{"name"=>"hello-reqs", "title"=>..., "spec"=>{...}}]
    class Specs
      KINDS = %w[concurrency timeline bars tuning].freeze
      LABEL_LIMIT_PX = Frame::LABEL_LIMIT_PX

      # metric => [name suffix, what, y axis title]
      TIMELINES = { "requests_per_s" => ["timeline", "requests per second over time", "req/s"],
                    "p99_ms" => ["timeline-p99", "p99 latency of each second", "p99 ms"] }.freeze

      def initialize(run, cells)
        @summary = Article::Summary.new(run, cells)
      end

      def kinds
        list = @summary.article["charts"] || %w[bars]
        list.map { |k| k.is_a?(Hash) ? k : { "kind" => k } }
      end

      def all = of(kinds)

      # The charts of the given kinds ([{"kind"=>"timeline"}]), whatever the suite asks for.
      def of(kinds)
        kinds.flat_map do |k|
          unless KINDS.include?(k["kind"])
            raise ConfigError,
                  "unknown chart kind #{k["kind"].inspect}; known: #{KINDS.join(", ")}"
          end

          send(k["kind"], k)
        end
      end

      private

      def concurrency(_options)
        @summary.groups(%w[app endpoint]).flat_map do |group, list|
          title = @summary.title(group)
          ok = list.select(&:ok?)
          next [] if ok.map { |f| f.cell["concurrency"] }.uniq.size < 2

          points = ok.map do |f|
            { "config" => f.label, "concurrency" => f.cell["concurrency"], "requests_per_s" => f.requests_per_s,
              "latency_mean_ms" => f.latency_mean_ms }
          end
          [line("#{slug(title)}-reqs", "#{title}: requests per second", points, missing(list),
                x: "concurrency", y: "requests_per_s", y_title: "req/s"),
           line("#{slug(title)}-latency", "#{title}: mean response time", points, missing(list),
                x: "concurrency", y: "latency_mean_ms", y_title: "ms")]
        end
      end

      def timeline(options)
        metric = options.fetch("metric", "requests_per_s")
        suffix, what, y_title = TIMELINES.fetch(metric) do
          raise ConfigError, "timeline metric #{metric.inspect}; known: #{TIMELINES.keys.join(", ")}"
        end
        @summary.groups.filter_map do |group, list|
          with_series = list.select { |f| f.ok? && f.series.count { |p| p[metric] } > 1 }
          next if with_series.empty?

          title = @summary.title(group)
          points = with_series.flat_map { |f| f.series.select { |p| p[metric] }.map { |p| p.merge("config" => f.label) } }
          line("#{slug(title)}-#{suffix}", "#{title}: #{what}", points, missing(list),
               x: "t_s", y: metric, y_title: y_title, x_title: "seconds into the measurement", detail: "repeat")
        end
      end

      def bars(options)
        metric = options.fetch("metric", "requests_per_s")
        unit = Article::Figures::METRICS.fetch(metric)[2]
        @summary.groups.map do |group, list|
          title = @summary.title(group)
          values = list.select(&:ok?).map { |f| { "config" => f.label, "value" => f.metric(metric) } }
          chart("#{slug(title)}-#{metric.tr("_", "-")}", "#{title}: #{unit}", missing(list),
                "data" => { "values" => values }, "mark" => { "type" => "bar", "tooltip" => true },
                "encoding" => { "y" => { "field" => "config", "type" => "nominal", "sort" => nil, "title" => nil,
                                         "axis" => { "labelLimit" => LABEL_LIMIT_PX } },
                                "x" => { "field" => "value", "type" => "quantitative", "title" => unit },
                                "color" => { "field" => "config", "type" => "nominal", "legend" => nil } })
        end
      end

      def tuning(_options)
        top = @summary.cells.map { |c| c["concurrency"] }.max
        list = @summary.figures.select { |f| f.cell["concurrency"] == top }
        ok = list.select(&:ok?)
        return [] if ok.empty?

        %w[requests_per_s latency_mean_ms].flat_map do |metric|
          values = ok.map { |f| { "config" => f.label, "endpoint" => f.cell["endpoint"], "value" => f.metric(metric) } }
          unit = Article::Figures::METRICS.fetch(metric)[2]
          # The article's chart (configs on the x axis, a bar per endpoint), then rotated.
          [%w[config endpoint configs Configurations], %w[endpoint config endpoints Endpoints]].map do |x, series, name, title|
            chart("#{name}-c#{top}-#{metric.tr("_", "-")}", "#{title} at concurrency #{top}: #{unit}", missing(list),
                  "data" => { "values" => values }, "mark" => { "type" => "bar", "tooltip" => true },
                  "encoding" => { "x" => { "field" => x, "type" => "nominal", "sort" => nil, "title" => nil },
                                  "xOffset" => { "field" => series, "type" => "nominal" },
                                  "y" => { "field" => "value", "type" => "quantitative", "title" => unit },
                                  "color" => { "field" => series, "type" => "nominal" } })
          end
        end
      end

      # detail: a field that splits a config's points into separate lines (a
      # timeline's repeats each start again at second 1).
      def line(name, title, points, missing, x:, y:, y_title:, x_title: x, detail: nil)
        encoding = { "x" => { "field" => x, "type" => "quantitative", "title" => x_title },
                     "y" => { "field" => y, "type" => "quantitative", "title" => y_title },
                     "color" => { "field" => "config", "type" => "nominal", "sort" => nil } }
        encoding["detail"] = { "field" => detail, "type" => "nominal" } if detail
        chart(name, title, missing, "data" => { "values" => points },
                                    "mark" => { "type" => "line", "point" => true, "tooltip" => true }, "encoding" => encoding)
      end

      def chart(name, title, missing, body) = Frame.chart(name, title, body, missing: missing)

      def missing(list) = list.reject(&:ok?).map(&:label).uniq

      def slug(text) = Frame.slug(text)
    end
  end
end
