# frozen_string_literal: true

require_relative "parts/full_label"

module Rackbench
  module Reports
    # 003_766978340d4031d9.txt's per-worker memory: for each endpoint, one row
    # per config and one column per concurrency, "PSS / RSS" of one worker
    # process in MB (the largest over the window of the mean worker, the median
    # over repeats), with the article's figure for that server beside it when
    # the suite's article: per_worker_mb: gives one.
    #
    #   rackbench report RUN --format per_worker_memory
    class PerWorkerMemory < Base
      MB = 1024.0 * 1024

      def render
        cells.group_by { |m| m["endpoint"] }.map { |endpoint, list| section(endpoint, list) }.join("\n")
      end

      private

      def section(endpoint, list)
        levels = list.map { |m| m["concurrency"] }.uniq.sort
        rows = list.group_by { |m| FullLabel.for(m) }.map do |label, mine|
          by_level = mine.to_h { |m| [m["concurrency"], m] }
          [label, *levels.map { |c| by_level[c] ? figure(by_level[c]) : "" }, article_mb(mine.first)]
        end
        "#### Memory per worker process on #{endpoint}: PSS / RSS MB at each concurrency\n" +
          Grid.new(["config", *levels.map { |c| "c=#{c}" }, "article"], rows).markdown
      end

      def figure(measurement)
        return "-" unless measurement.ok?

        pss = median(measurement, "worker_pss_max_bytes")
        rss = median(measurement, "worker_rss_max_bytes")
        return "-" unless rss

        "#{pss ? format("%.0f", pss / MB) : "?"} / #{format("%.0f", rss / MB)}"
      end

      def median(measurement, key)
        values = measurement.repeats.filter_map { |r| r.resources[key] }
        values.empty? ? nil : Stats.median(values)
      end

      def article_mb(measurement)
        mb = (run_article["per_worker_mb"] || {})[measurement["server"]]
        mb ? "~#{mb}" : ""
      end

      def run_article = (run["settings"] || {})["article"] || {}
    end

    register("per_worker_memory", PerWorkerMemory)
  end
end
