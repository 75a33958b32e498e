# frozen_string_literal: true

require_relative "frame"

module Rackbench
  module Charts
    # The charts of a tune run (Tune::Tuner), from its stored answer and its
    # probes: the sustainable rate over workers x threads (a heat map, where
    # the space has both knobs), latency against offered rate per config
    # (the knee curve: each probe a point, filled when it met the SLO, the
    # SLO's bound a rule), and the PSS of each config at its knee.
    #
    #   Tune.new(run, measurements).charts  # => [] for any other run
    class Tune
      def initialize(run, measurements)
        @answer = run.dig("settings", "tune_answer")
        @settings = run.dig("settings", "tune") || {}
        @measurements = measurements.select(&:ok?)
      end

      def charts
        return [] unless @answer

        [heat_map, knee_curves, memory].compact
      end

      # The configs in the order they were tried, with what they sustained.
      def configs
        @answer["configs"].map do |c|
          { "config" => c["label"], "workers" => knob(c["config"], "workers"), "threads" => knob(c["config"], "threads"),
            "variant" => variant(c["config"]), "rate" => c["sustainable_rate"]&.round(1),
            "pss_mb" => c["pss_bytes"] && (c["pss_bytes"] / 1_048_576.0).round(1) }
        end
      end

      # One point per probe: its config, offered and achieved rate, p99 and
      # whether it met the SLO.
      def probes
        @measurements.filter_map do |m|
          rate = m.offered_rate_per_s or next
          { "config" => m.config_label, "offered_per_s" => rate, "achieved_per_s" => m.requests_per_s.round(1),
            "latency_ms" => m.latency_ms(percentile)&.round(2), "met" => met?(m) }
        end
      end

      private

      def labels = configs.map { |c| c["config"] }

      def heat_map
        values = configs.select { |c| c["threads"] && c["rate"] }
        return nil if values.map { |c| c["workers"] }.uniq.size < 2 || values.map { |c| c["threads"] }.uniq.size < 2

        layers = { "layer" => [
          { "mark" => { "type" => "rect", "tooltip" => true },
            "encoding" => axes.merge("color" => { "field" => "rate", "type" => "quantitative", "title" => "req/s",
                                                  "scale" => { "scheme" => "viridis" } }) },
          { "mark" => { "type" => "text", "color" => "white" },
            "encoding" => axes.merge("text" => { "field" => "rate", "type" => "quantitative", "format" => ".0f" }) }
        ] }
        body = if (facet = facet(values))
                 { "data" => { "values" => values }, "facet" => facet, "spec" => layers.merge("width" => 220, "height" => 200) }
               else
                 { "data" => { "values" => values } }.merge(layers)
               end
        Frame.chart("tune-heat-map", "Sustainable req/s at #{@answer["slo"]}: workers x threads", body, width: 300, height: 220)
             .tap { |c| facet && c["spec"].delete("width") && c["spec"].delete("height") }
      end

      def axes
        { "x" => { "field" => "threads", "type" => "ordinal", "title" => "threads per process" },
          "y" => { "field" => "workers", "type" => "ordinal", "title" => "workers (0: single mode)", "sort" => "descending" } }
      end

      # A panel per variant (yjit, preload) when the space varied one.
      def facet(values)
        values.map { |c| c["variant"] }.uniq.size > 1 ? { "column" => { "field" => "variant", "title" => nil } } : nil
      end

      def knee_curves
        values = probes.select { |p| p["latency_ms"] }
        return nil if values.empty?

        bound = { "data" => { "values" => [{ "bound_ms" => bound_ms }] },
                  "mark" => { "type" => "rule", "strokeDash" => [4, 4], "color" => "#a33" },
                  "encoding" => { "y" => { "field" => "bound_ms", "type" => "quantitative" } } }
        Frame.chart("tune-knees", "Latency (#{percentile_name}) against offered rate, per config; dashed: the SLO", {
                      "layer" => [
                        { "data" => { "values" => values },
                          "mark" => { "type" => "line", "point" => false, "opacity" => 0.5 },
                          "encoding" => knee_axes.merge("color" => Frame.color(labels & values.map { |p| p["config"] }),
                                                        "order" => { "field" => "offered_per_s", "type" => "quantitative" }) },
                        { "data" => { "values" => values },
                          "mark" => { "type" => "point", "tooltip" => true, "size" => 50 },
                          "encoding" => knee_axes.merge("color" => Frame.color(labels & values.map { |p| p["config"] }),
                                                        "shape" => { "field" => "met", "type" => "nominal",
                                                                     "title" => "met the SLO" }) },
                        bound
                      ]
                    })
      end

      def knee_axes
        { "x" => { "field" => "offered_per_s", "type" => "quantitative", "title" => "offered req/s (open loop)",
                   "scale" => { "type" => "log" } },
          "y" => { "field" => "latency_ms", "type" => "quantitative", "title" => "#{percentile_name} ms from scheduled send",
                   "scale" => { "type" => "log" } } }
      end

      def memory
        values = configs.select { |c| c["pss_mb"] }
        return nil if values.empty?

        Frame.chart("tune-memory", "PSS of the server tree at its knee, per config", {
                      "data" => { "values" => values }, "height" => [values.size * 24, 60].max,
                      "mark" => { "type" => "bar", "tooltip" => true },
                      "encoding" => {
                        "y" => { "field" => "config", "type" => "nominal", "sort" => labels, "title" => nil,
                                 "axis" => { "labelLimit" => Frame::LABEL_LIMIT_PX } },
                        "x" => { "field" => "pss_mb", "type" => "quantitative", "title" => "PSS MB" },
                        "color" => Frame.color(labels).merge("legend" => nil)
                      }
                    })
      end

      # The config's value of a knob, or its server's default for it (Knob).
      def knob(config, name)
        config.fetch(name) { Rackbench::Servers.fetch(config["server"]).knob_schema[name]&.default }
      end

      def variant(config)
        on = Rackbench::Tune::Space.switches.select { |k| config[k] }
        on.empty? ? "plain" : on.join("+")
      end

      # Slo#to_s ("p99 <= 200.0 ms, errors <= 0.1 %") reads back without its spaces.
      def slo = @slo ||= Rackbench::Slo.parse(@answer["slo"].delete(" "))
      def percentile_name = slo.percentile_name
      def percentile = slo.percentile
      def bound_ms = slo.latency_us / 1000.0

      def met?(measurement) = slo.met?(measurement.repeats.first.result)
    end
  end
end
