# frozen_string_literal: true

module Rackbench
  module Reports
    # What warmed each server before its first window, from the first window
    # of every start (Trial#served_before): rackbench's own requests, counted
    # (readiness, the checks of its answers, the drain's probes), and the
    # warm-up's seconds with its responses as the engine counted them, in the
    # window's own run or in a warm-up run of its own ("about" when one was
    # estimated at the window's rate: runs stored before the count). One line
    # of a report's heading; nil for runs stored before it was recorded.
    #
    #   ServedBefore.line(measurements)
    #   # => "Before a start's first window: readiness 1, checks 2, drain probes 2-4 (rackbench's requests); " \
    #   #    "1 s warm-up, 1,200-2,300 requests"
    module ServedBefore
      module_function

      def line(measurements)
        records = measurements.flat_map(&:repeats).filter_map { |r| with_warm_up_run(r.resources) }
        return nil if records.empty?

        counted = { "readiness" => "readiness", "checks" => "checks", "drain_probes" => "drain probes" }
        parts = counted.map { |key, name| "#{name} #{span(records.map { |r| r[key].to_i })}" }
        text = "Before a start's first window: #{parts.join(", ")} (rackbench's requests)"
        warmup_s = records.map { |r| r["warmup_s"].to_f }.max
        return text if warmup_s.zero?

        "#{text}; #{format("%g", warmup_s)} s warm-up, #{warmup_requests(records)} requests"
      end

      # Counted where every record has the engine's count, else "about" the estimates.
      def warmup_requests(records)
        counted = records.map { |r| r["warmup_requests"] }
        return span(counted) if counted.all?

        "about #{span(records.map { |r| r["warmup_requests"] || r["warmup_requests_estimate"].to_i })}"
      end

      # The first window's record, with the responses of a warm-up run of its
      # own (an engine that cannot cut the warm-up from its run: resources["warmup"]).
      def with_warm_up_run(resources)
        record = resources["served_before"]
        run = resources["warmup"]
        return record unless record && run && run["mode"] == "fixed" && run["requests"]

        record.except("warmup_requests_estimate").merge("warmup_requests" => run["requests"])
      end

      def span(values)
        low, high = values.minmax.map { |v| v.to_s.gsub(/(\d)(?=(\d{3})+\z)/, "\\1,") }
        low == high ? low : "#{low}-#{high}"
      end
    end
  end
end
