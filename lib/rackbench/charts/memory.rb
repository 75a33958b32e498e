# frozen_string_literal: true

require_relative "frame"

module Rackbench
  module Charts
    # Memory per config, as bars: the largest PSS of the server's process
    # tree over the config's cells (RSS, labelled so, where PSS could not be
    # read), and that figure divided by the processes counted, what one
    # worker costs. Created by Page when the run sampled memory.
    #
    #   Memory.new(measurements, labels).charts  # => [per config, per process]
    class Memory
      def initialize(measurements, labels)
        @measurements = measurements
        @labels = labels
      end

      # The cell of each config with the most memory: [{"config", "memory_mb", "kind", "processes", "per_process_mb"}]
      def points
        @measurements.select { |m| m.ok? && m.memory_bytes }.group_by(&:label).map do |label, list|
          m = list.max_by(&:memory_bytes)
          processes = m.processes.to_i
          { "config" => label, "memory_mb" => m.memory_mb.round(1), "kind" => m.memory_kind, "processes" => processes,
            "per_process_mb" => processes.positive? ? (m.memory_mb / processes).round(1) : nil }
        end
      end

      def charts
        values = points
        return [] if values.empty?

        kind = values.map { |p| p["kind"] }.uniq.join("/")
        [bar("memory", "Memory of the server per config: largest #{kind} over its cells", values, "memory_mb", "#{kind} MB"),
         bar("memory-per-process", "Memory per server process (#{kind} / processes)", values.select { |p| p["per_process_mb"] },
             "per_process_mb", "#{kind} MB per process")]
      end

      private

      def bar(name, title, values, field, x_title)
        Frame.chart(name, title, {
                      "data" => { "values" => values }, "height" => [values.size * 28, 60].max,
                      "mark" => { "type" => "bar", "tooltip" => true },
                      "encoding" => {
                        "y" => { "field" => "config", "type" => "nominal", "sort" => @labels, "title" => nil,
                                 "axis" => { "labelLimit" => Frame::LABEL_LIMIT_PX } },
                        "x" => { "field" => field, "type" => "quantitative", "title" => x_title },
                        "color" => Frame.color(@labels & values.map { |p| p["config"] }).merge("legend" => nil)
                      }
                    })
      end
    end
  end
end
