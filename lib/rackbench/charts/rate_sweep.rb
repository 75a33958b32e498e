# frozen_string_literal: true

require_relative "frame"

module Rackbench
  module Charts
    # A rate sweep's latency against offered rate (the knee), one chart per
    # endpoint and concurrency: p50 and p99 per config (p99 solid, p50
    # dashed), log y, each point a measured rate. Created by Page.
    #
    #   RateSweep.new(measurements).charts  # => [] without a sweep
    class RateSweep
      def initialize(measurements)
        @curves = Reports::RateSweep.new(measurements).curves
        @labels = measurements.select(&:ok?).map(&:config_label).uniq
      end

      def charts
        @curves.group_by { |c| [c["endpoint"], c["concurrency"]] }.map do |(endpoint, concurrency), curves|
          chart(endpoint, concurrency, curves)
        end
      end

      private

      def chart(endpoint, concurrency, curves)
        values = curves.flat_map do |c|
          c["rows"].select { |r| r["ok"] }.flat_map do |r|
            %w[p50 p99].filter_map do |p|
              ms = r["#{p}_ms"] or next
              { "config" => c["config"], "percentile" => p, "offered_per_s" => r["offered_per_s"],
                "achieved_per_s" => r["achieved_per_s"].round(1), "latency_ms" => ms.round(2) }
            end
          end
        end
        configs = @labels & values.map { |v| v["config"] }
        Frame.chart("#{Frame.slug(endpoint)}-c#{concurrency}-rate-sweep",
                    "#{endpoint} at #{concurrency} connections: latency against offered rate (open loop)", {
                      "data" => { "values" => values },
                      "mark" => { "type" => "line", "point" => true, "tooltip" => true },
                      "encoding" => {
                        "x" => { "field" => "offered_per_s", "type" => "quantitative", "title" => "offered req/s" },
                        "y" => { "field" => "latency_ms", "type" => "quantitative", "scale" => { "type" => "log" },
                                 "title" => "ms from scheduled send (log)" },
                        "color" => Frame.color(configs),
                        "strokeDash" => { "field" => "percentile", "type" => "nominal", "sort" => %w[p99 p50],
                                          "title" => "percentile" },
                        "detail" => { "field" => "percentile" }
                      }
                    })
      end
    end
  end
end
