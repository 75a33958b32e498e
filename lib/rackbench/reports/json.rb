# frozen_string_literal: true

require "json"

module Rackbench
  module Reports
    # Everything, for other tools: the run, each cell's derived figures (with
    # CIs and warnings) and its raw repeats (engine results with histograms
    # and series, resources, noise), the verdicts, and a rate sweep's curves
    # (latency against offered rate, RateSweep) when the suite has rates:,
    # and the report document itself ("report": the heading and each
    # section's tables and lines, as the other formats print them).
    #
    #   Json.write(document, data)  # any Document (compare's too): data's keys, then "report"
    class Json < Base
      def self.write(document, data = {}) = "#{JSON.pretty_generate(data.merge("report" => document.to_h))}\n"

      def render
        data = {
          "run" => run,
          "cells" => cells.map { |m| m.to_h.merge("repeats" => m.repeats.map { |r| repeat_h(r) }) },
          "verdicts" => verdicts.flat_map do |v|
            (v["comparisons"] || [v["comparison"]]).map do |c|
              c.to_h.merge("endpoint" => v["endpoint"], "concurrency" => v["concurrency"], "rate" => v["rate"])
            end
          end,
          "multiplicity" => verdict_set.multiplicity.to_h
        }
        data["rate_sweeps"] = rate_sweep.plain_curves if rate_sweep.any?
        self.class.write(document, data)
      end

      private

      def repeat_h(repeat)
        { "index" => repeat.index, "deployment" => repeat.deployment, "round" => repeat.round,
          "drain_s" => repeat.drain_s, "result" => repeat.result.to_h, "resources" => repeat.resources,
          "noise" => repeat.noise }
      end
    end

    register("json", Json)
  end
end
