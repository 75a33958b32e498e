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
          rows = listed.filter_map { |p| point(m, p, m.latency_ms(p)) }
          longest = m.latency_ms(100)
          rows << point(m, 100.0 - (100.0 / count), longest, longest: true) if longest && count > 1
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
        Frame.chart("#{Frame.slug(@title)}-percentiles", "#{@title}: latency by percentile", {
                      "data" => { "values" => values },
                      "mark" => { "type" => "line", "point" => true, "tooltip" => true, "interpolate" => "monotone" },
                      "encoding" => {
                        "x" => x,
                        "y" => { "field" => "latency_ms", "type" => "quantitative", "title" => "latency ms", "scale" => y_scale },
                        "color" => Frame.color(shown_labels),
                        "tooltip" => [{ "field" => "config" }, { "field" => "percentile" },
                                      { "field" => "latency_ms", "type" => "quantitative" }]
                      }
                    }, missing: missing)
      end

      # 1 / (1 - p): 50 % -> 2, 99 % -> 100, 99.9 % -> 1000.
      def nines(percent) = (100.0 / (100.0 - percent)).round(6)

      LABEL = "datum.value <= 1 ? '0%' : format(100 - 100 / datum.value, '.6~r') + '%'"

      private

      def point(measurement, percent, latency_ms, longest: false)
        return nil unless latency_ms

        { "config" => measurement.label, "nines" => nines(percent).round(3),
          "percentile" => longest ? "longest" : "#{percent}%", "latency_ms" => latency_ms.round(3) }
      end
    end
  end
end
