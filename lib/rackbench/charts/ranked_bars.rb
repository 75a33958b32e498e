# frozen_string_literal: true

require_relative "group_chart"

module Rackbench
  module Charts
    # Throughput of one cell group as a bar per config with its 95 % CI as an
    # error bar: the view of a run measured at one concurrency only (a line
    # against concurrency needs two). Created by Page.
    #
    #   RankedBars.new("rack /hello at concurrency 4", measurements, labels).chart
    class RankedBars < GroupChart
      def points
        measured.map do |m|
          ci = m.requests_per_s_ci
          { "config" => m.label, "value" => m.requests_per_s.round(1), "low" => ci&.low&.round(1), "high" => ci&.high&.round(1) }
        end
      end

      def chart
        values = points
        y = { "field" => "config", "type" => "nominal", "sort" => @labels, "title" => nil,
              "axis" => { "labelLimit" => Frame::LABEL_LIMIT_PX } }
        Frame.chart("#{Frame.slug(@title)}-requests-per-s", "#{@title}: throughput", {
                      "data" => { "values" => values }, "height" => [values.size * 28, 60].max,
                      "layer" => [
                        { "mark" => { "type" => "bar", "tooltip" => true },
                          "encoding" => { "y" => y, "x" => { "field" => "value", "type" => "quantitative",
                                                             "title" => "req/s (over server starts, 95 % CI)" },
                                          "color" => Frame.color(shown_labels).merge("legend" => nil) } },
                        { "mark" => { "type" => "rule", "strokeWidth" => 2 },
                          "encoding" => { "y" => y, "x" => { "field" => "low", "type" => "quantitative" },
                                          "x2" => { "field" => "high" } } }
                      ]
                    }, missing: missing)
      end
    end
  end
end
