# frozen_string_literal: true

require_relative "group_chart"

module Rackbench
  module Charts
    # Where the latency inside the server went, per config against
    # concurrency: at each concurrency a bar for p50 and one for p99, each
    # stacked into queue, app (without its GC) and GC (Probe::Breakdown: the
    # means of the requests at that percentile), with the total's 95 %
    # interval over server starts as a rule. Created by Page for every
    # endpoint of a run made with explain: true.
    #
    #   Why.new("rack /sleep/50", measurements, labels).charts  # => a chart per config with probe records
    class Why < GroupChart
      PARTS = %w[queue app GC].freeze
      PERCENTILES = [50, 99].freeze

      def charts
        breakdowns.group_by { |m, _| m.label }.map { |label, list| chart(label, list) }
      end

      # A point per concurrency, percentile and part: {"column" => "c=4 p50", "part" => "queue", "ms" => ...}
      def points(list)
        list.sort_by { |m, _| m.concurrency }.flat_map do |m, b|
          PERCENTILES.filter_map { |p| b.at(p)&.then { |at| [p, at] } }.flat_map do |p, at|
            parts = [at["queue_ms"], at["app_ms"] - at["gc_ms"], at["gc_ms"]]
            PARTS.zip(parts).each_with_index.map do |(part, ms), order|
              { "column" => column(m, p), "concurrency" => m.concurrency, "percentile" => "p#{p}", "part" => part,
                "order" => order, "ms" => ms.round(3) }
            end
          end
        end
      end

      # The total's interval per bar, where there are two starts or more.
      def intervals(list)
        list.flat_map do |m, b|
          PERCENTILES.filter_map do |p|
            ci = b.ci("total_ms", p) or next
            { "column" => column(m, p), "low" => ci.low.round(3), "high" => ci.high.round(3) }
          end
        end
      end

      private

      def breakdowns = measured.map { |m| [m, Probe::Breakdown.of(m.repeats)] }.select { |_, b| b.any? }

      def column(measurement, percentile) = "c=#{measurement.concurrency} p#{percentile}"

      def chart(label, list)
        values = points(list)
        x = { "field" => "column", "type" => "nominal", "sort" => values.map { |p| p["column"] }.uniq,
              "title" => "concurrency and percentile", "axis" => { "labelAngle" => 0 } }
        y_title = "ms in the server (rule: 95 % CI of total)"
        Frame.chart("#{Frame.slug(@title)}-#{Frame.slug(label)}-why", "#{@title}, #{label}: where the latency went", {
                      "layer" => [
                        { "data" => { "values" => values }, "mark" => { "type" => "bar", "tooltip" => true },
                          "encoding" => { "x" => x, "y" => { "field" => "ms", "type" => "quantitative", "stack" => "zero",
                                                             "title" => y_title },
                                          "color" => { "field" => "part", "type" => "nominal", "title" => nil,
                                                       "scale" => { "domain" => PARTS }, "sort" => PARTS },
                                          "order" => { "field" => "order", "type" => "quantitative" } } },
                        { "data" => { "values" => intervals(list) }, "mark" => { "type" => "rule", "strokeWidth" => 2 },
                          "encoding" => { "x" => x, "y" => { "field" => "low", "type" => "quantitative" },
                                          "y2" => { "field" => "high" } } }
                      ]
                    })
      end
    end
  end
end
