# frozen_string_literal: true

require_relative "group_chart"

module Rackbench
  module Charts
    # Throughput and p99 latency against concurrency for one endpoint, a line
    # per config with its 95 % CI as a band around it: 003's charts, and the
    # natural view of any concurrency sweep (the quick suite). Created by Page
    # for every endpoint measured at two or more concurrencies.
    #
    #   Scaling.new("rack /hello", measurements, labels).charts
    #   # => [throughput chart, p99 chart]
    class Scaling < GroupChart
      # metric => [name suffix, title, y axis title]
      METRICS = {
        "requests_per_s" => ["throughput", "throughput against concurrency", "req/s (over server starts, 95 % CI band)"],
        "latency_p99_ms" => ["p99", "p99 latency against concurrency", "p99 ms (all windows merged; 95 % CI band over starts)"]
      }.freeze

      def charts = METRICS.keys.map { |metric| chart(metric) }

      def points(metric)
        measured.filter_map do |m|
          value, ci = figure(m, metric)
          next unless value

          { "config" => m.label, "concurrency" => m.concurrency, "value" => value.round(3),
            "low" => ci&.low&.round(3), "high" => ci&.high&.round(3) }
        end
      end

      private

      def figure(measurement, metric)
        if metric == "requests_per_s"
          [measurement.requests_per_s, measurement.requests_per_s_ci]
        else
          [measurement.latency_ms(99), measurement.latency_ci_ms(99)]
        end
      end

      def chart(metric)
        suffix, what, y_title = METRICS.fetch(metric)
        values = points(metric)
        log = metric.start_with?("latency") && values.all? { |p| p["value"].positive? }
        y_scale = log ? { "type" => "log" } : { "zero" => true }
        x = { "field" => "concurrency", "type" => "quantitative", "title" => "concurrency (connections)",
              "scale" => x_scale(values), "axis" => { "values" => values.map { |p| p["concurrency"] }.uniq.sort } }
        color = Frame.color(shown_labels)
        Frame.chart("#{Frame.slug(@title)}-#{suffix}", "#{@title}: #{what}", {
                      "data" => { "values" => values },
                      # The line first: the legend takes its symbols from it.
                      "layer" => [
                        { "mark" => { "type" => "line", "point" => true, "tooltip" => true },
                          "encoding" => { "x" => x, "y" => { "field" => "value", "type" => "quantitative", "title" => y_title,
                                                             "scale" => y_scale },
                                          "color" => color } },
                        { "mark" => { "type" => "area", "opacity" => 0.18 },
                          "encoding" => { "x" => x, "y" => { "field" => "low", "type" => "quantitative", "scale" => y_scale },
                                          "y2" => { "field" => "high" }, "color" => color } }
                      ]
                    }, missing: missing)
      end

      # A geometric sweep (1, 8, 32) reads better on a log axis.
      def x_scale(values)
        xs = values.map { |p| p["concurrency"] }.uniq
        xs.min.to_f.positive? && xs.max.fdiv(xs.min) >= 10 ? { "type" => "log" } : { "zero" => false }
      end
    end
  end
end
