# frozen_string_literal: true

module Rackbench
  module Reports
    # The report's "Capacity" section: per measured cell, its memory as
    # "N MB shared + M MB per worker after K requests" (Capacity), how the
    # mean worker's PSS grew per 1000 requests, the workers that fit the
    # run's capacity memory, CPU time per good request, and with a price and
    # CPUs the cost per million requests; the same figures as numbers in the
    # section's data (Capacity#to_h per cell: json). No section for runs
    # without memory snapshots (older runs, other hosts).
    #
    #   CapacitySection.new(measurements, run.dig("settings", "capacity")).sections
    class CapacitySection
      def initialize(measurements, settings)
        @settings = Capacity.settings(settings) { |key, message| raise ConfigError, "capacity.#{key}: #{message}" }
        @rows = measurements.select(&:ok?).map { |m| [m, Capacity.new(m, @settings)] }.select { |_, c| c.last }
      end

      def sections
        return [] if @rows.empty?

        fit = @settings["memory"] ? "workers in #{format("%.0f", @settings["memory"] / Capacity::MB)} MB" : "workers in --memory"
        headers = ["Server / config", "Endpoint", "Conc.", "Memory", "worker USS MB: fork -> end",
                   "worker PSS MB/1k req", fit, "CPU ms/good req", cost_title]
        rows = @rows.map do |m, c|
          [m.label, m.endpoint, m.concurrency.to_s, c.memory_line, uss_growth(c.worker_uss_mb_first_to_last),
           number(c.worker_pss_growth_mb_per_k_requests),
           c.workers_fitting&.to_s || "-", number(c.cpu_ms_per_request), number(c.cost_per_million)]
        end
        add_replaced(headers, rows)
        [Document::Section.new("capacity", "Capacity", [Grid.new(headers, rows, left: 2), Document::Text.plain(NOTE)], data)]
      end

      NOTE = "Memory at the end of the last window: the workers' mean USS (what one more worker adds) and the rest of " \
             "the tree's PSS (master, shared copy-on-write pages); requests are those measured on the deployment so far. " \
             "Worker USS: the mean worker's private memory when all its deployment's workers first existed (sampled from " \
             "the server's start), then at the end of the last window (what copy-on-write sharing lost from " \
             "the fork through the checks, warm-up and load); where most workers " \
             "were replaced while serving (a refork, or a restart), their USS just before, just after and at the end. " \
             "Cost assumes every CPU of the machine busy at this CPU time per request (rackbench report --price " \
             "HOURLY --cpus N --memory SIZE)."

      private

      # Each cell's capacity as numbers, without the memory samples behind it (those are in the cell's repeats).
      def data
        @rows.map do |m, c|
          { "label" => m.label, "endpoint" => m.endpoint, "concurrency" => m.concurrency, **c.to_h.except("points") }
        end
      end

      def cost_title
        return "cost/1M req" unless @settings["price_per_hour"] && @settings["cpus"]

        "cost/1M req (#{@settings["cpus"]} CPUs at #{@settings["price_per_hour"]}/h)"
      end

      # A column for workers replaced while serving (a refork), when any config's were.
      def add_replaced(headers, rows)
        replaced = @rows.map { |_, c| c.workers_replaced }
        return if replaced.none?

        headers.insert(5, "worker USS MB: before -> after refork -> end")
        rows.zip(replaced).each do |row, r|
          row.insert(5, r ? format("%.1f -> %.1f -> %.1f", *r.values_at("before_mb", "after_mb", "end_mb")) : "-")
        end
      end

      def uss_growth(pair) = pair ? format("%.1f -> %.1f", *pair) : "-"

      def number(value)
        return "-" unless value

        value.abs >= 10 ? format("%.1f", value) : format("%.3g", value)
      end
    end
  end
end
