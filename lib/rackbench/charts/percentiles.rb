# frozen_string_literal: true

require_relative "group_chart"

module Rackbench
  module Charts
    # The latency distribution of one cell group (an endpoint at one
    # concurrency), a line per config: latency against percentile, the
    # percentiles spaced on a log-scaled "nines" axis (50 %, 90 %, 99 %,
    # 99.9 %, ...: x = 1 / (1 - p)), as HdrHistogram's plots draw them.
    # Read from each Measurement's merged histogram (all repeats); up to
    # the percentile the request count can resolve, then the longest request.
    # Where a percentile falls among requests left without a response
    # (Measurement#latency_all), it is drawn at its lower bound over all the
    # windows' requests as a hollow triangle ("censored", ">=" in the tooltip),
    # and the config's region from its first lower bound on is shaded. Each
    # measured percentile carries its 95 % interval over server starts
    # (Measurement#latency_ci_ms; none with one start), drawn as a band.
    # Created by Page for every cell group.
    #
    #   Percentiles.new("rack /hello at concurrency 8", measurements, labels).chart
    class Percentiles < GroupChart
      PERCENTS = [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 99.9995, 99.9999].freeze
      NINES = [1, 2, 10, 100, 1_000, 10_000, 100_000, 1_000_000].freeze

      # [{"config", "percentile", "nines", "latency_ms"}]
      def points
        measured.flat_map do |m|
          count = m.requests
          next [] unless count.positive?

          listed = PERCENTS.select { |p| nines(p) <= count }
          rows = listed.filter_map { |p| censored_point(m, p) || point(m, p, m.latency_ms(p)) }
          longest = m.latency_ms(100)
          rows << longest_point(m, longest, count) if longest && count > 1
          rows
        end
      end

      def chart
        values = points
        top = values.map { |p| p["nines"] }.max || 1
        x_values = NINES.select { |n| n <= top }
        x = { "field" => "nines", "type" => "quantitative", "title" => "percentile",
              "scale" => { "type" => "log", "domain" => [1, [top, 2].max] },
              "axis" => { "values" => x_values, "labelExpr" => LABEL } }
        y_scale = values.all? { |p| p["latency_ms"].positive? } ? { "type" => "log" } : {}
        y = { "field" => "latency_ms", "type" => "quantitative", "title" => "latency ms", "scale" => y_scale }
        color = Frame.color(shown_labels)
        tooltip = [{ "field" => "config" }, { "field" => "percentile" }, { "field" => "latency_ms", "type" => "quantitative" },
                   { "field" => "low_ms", "type" => "quantitative", "title" => "95 % CI low" },
                   { "field" => "high_ms", "type" => "quantitative", "title" => "95 % CI high" }]
        line = { "x" => x, "y" => y, "color" => color }
        Frame.chart("#{Frame.slug(@title)}-percentiles", "#{@title}: latency by percentile", {
                      "data" => { "values" => values },
                      "layer" => [*censored_layer(x, values),
                                  { "mark" => { "type" => "area", "opacity" => 0.2, "interpolate" => "monotone" },
                                    "transform" => [{ "filter" => "isValid(datum.low_ms)" }],
                                    "encoding" => { "x" => x, "y" => y.merge("field" => "low_ms"),
                                                    "y2" => { "field" => "high_ms" }, "color" => color } },
                                  { "mark" => { "type" => "line", "interpolate" => "monotone" }, "encoding" => line },
                                  { "mark" => { "type" => "point", "tooltip" => true },
                                    "encoding" => line.merge("shape" => SHAPE, "tooltip" => tooltip) }]
                    }, missing: missing)
      end

      # Where each config's percentiles fall among requests left without a
      # response: [{"config", "from", "to"}], from its first lower bound to the right edge.
      def censored_regions(values = points)
        top = values.map { |p| p["nines"] }.max
        values.group_by { |p| p["config"] }.filter_map do |config, rows|
          first = rows.reject { |p| p["bound"] == "measured" }.map { |p| p["nines"] }.min or next
          { "config" => config, "from" => first, "to" => [top, first].max,
            "note" => "unfinished requests: percentiles from here are lower bounds" }
        end
      end

      # 1 / (1 - p): 50 % -> 2, 99 % -> 100, 99.9 % -> 1000.
      def nines(percent) = (100.0 / (100.0 - percent)).round(6)

      LABEL = "datum.value <= 1 ? '0%' : format(100 - 100 / datum.value, '.6~r') + '%'"
      # Measured percentiles as circles, lower bounds (over requests left without a response) as triangles.
      SHAPE = { "field" => "bound", "type" => "nominal", "title" => nil,
                "scale" => { "domain" => ["measured", "at least (unfinished requests)"],
                             "range" => %w[circle triangle-up] } }.freeze

      private

      # A shaded band over each config's censored region, behind the lines.
      def censored_layer(x, values)
        regions = censored_regions(values)
        return [] if regions.empty?

        [{ "data" => { "values" => regions }, "mark" => { "type" => "rect", "color" => "#888", "opacity" => 0.12 },
           "encoding" => { "x" => x.merge("field" => "from"), "x2" => { "field" => "to" },
                           "tooltip" => [{ "field" => "config" }, { "field" => "note" }] } }]
      end

      # A measured percentile, with its 95 % interval over starts where there are two or more (Measurement#latency_ci_ms).
      def point(measurement, percent, latency_ms, longest: false)
        return nil unless latency_ms

        ci = longest ? nil : measurement.latency_ci_ms(percent)
        { "config" => measurement.label, "nines" => nines(percent).round(3),
          "percentile" => longest ? "longest" : "#{percent}%", "latency_ms" => latency_ms.round(3),
          "low_ms" => ci&.low&.round(3), "high_ms" => ci&.high&.round(3), "bound" => "measured" }
      end

      # The longest request, drawn at the last percentile the count resolves.
      def longest_point(measurement, longest_ms, count)
        at = 100.0 - (100.0 / count)
        censored_point(measurement, 100, at: at) || point(measurement, at, longest_ms, longest: true)
      end

      # The percentile over all the windows' requests where it is only a lower bound; else nil.
      def censored_point(measurement, percent, at: percent)
        all = measurement.latency_all(percent)
        return nil unless all&.bound && all.value_ms

        point(measurement, at, all.value_ms, longest: percent == 100)
          .merge("percentile" => ">= #{percent == 100 ? "longest" : "#{percent}%"}", "bound" => "at least (unfinished requests)",
                 "low_ms" => nil, "high_ms" => nil)
      end
    end
  end
end
