# frozen_string_literal: true

module Rackbench
  class Measurement
    # What the app's dependencies (a PostgreSQL, a Redis: Dependency) used
    # during a cell's windows, beside the server: per dependency the median
    # CPU over the repeats, the largest PSS, and the CPUs they ran on.
    # Made by Measurement#dependencies from each repeat's
    # resources["dependencies"] (DependencySampler).
    #
    #   m.dependencies        # => {"postgres" => {"cpu_percent" => 38.0, "memory_bytes" => 25_165_824, ...}}
    #   m.resources_text      # => "server 42 % CPU, 71 MB; postgres 38 % CPU, 24 MB"
    module Dependencies
      module_function

      def of(repeats)
        names = repeats.flat_map { |r| r.resources.fetch("dependencies", {}).keys }.uniq
        names.to_h do |name|
          used = repeats.filter_map { |r| r.resources.dig("dependencies", name) }
          cpu = used.filter_map { |u| u["cpu_percent"] }
          [name, { "cpu_percent" => cpu.empty? ? nil : Stats.median(cpu),
                   "memory_bytes" => used.filter_map { |u| u["pss_max_bytes"] || u["rss_max_bytes"] }.max,
                   "cpus_seen" => used.flat_map { |u| u["cpus_seen"].to_a }.uniq.sort,
                   "cpus_allowed" => used.filter_map { |u| u["cpus_allowed"] }.last }]
        end
      end

      # "server 42 % CPU, 71 MB; postgres 38 % CPU, 24 MB"
      def text(measurement)
        parts = [["server", measurement.cpu_percent, measurement.memory_bytes]]
        parts += measurement.dependencies.map { |name, d| [name, d["cpu_percent"], d["memory_bytes"]] }
        parts.map { |name, cpu, bytes| "#{name} #{cpu ? "#{cpu.round} %" : "?"} CPU, #{mb(bytes)} MB" }.join("; ")
      end

      def mb(bytes) = bytes ? (bytes / 1_048_576.0).round : "?"
    end
  end
end
