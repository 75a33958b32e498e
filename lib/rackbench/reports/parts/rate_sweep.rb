# frozen_string_literal: true

module Rackbench
  module Reports
    # A rate sweep (suite rates:) as the curve rails/rails#50450 drew by hand:
    # for each config, endpoint and concurrency, latency percentiles against
    # the offered open-loop rate, one row per rate (achieved req/s with its
    # CI, p50/p90/p99 from the merged histogram, each with its CI over
    # starts, errors). Latency is from each
    # request's scheduled send time, so the rows past a server's capacity
    # show its queue. Past it, requests are left without a response: a
    # percentile among them is shown over all the windows' requests as a
    # lower bound (">= 1359.87", no CI), and "unfinished" gives their share
    # (Measurement#latency_all; json: p50_all_ms, p50_censored, ...). Empty
    # without a sweep.
    #
    #   RateSweep.new(measurements).curves  # => [{"config", "endpoint", "concurrency", "rows" => [...]}]
    #   RateSweep.new(measurements).sections  # => a Document::Section "rate_sweep" per curve
    #
    # With rates: auto (Tune::AutoRates; auto: the run's settings
    # "auto_rates"), each curve also says its config's knee under the slo:
    # and where it lies ("knee" in json).
    class RateSweep
      HEADERS = ["offered req/s", "achieved req/s [95% CI]", "p50 ms [95% CI]", "p90 ms [95% CI]", "p99 ms [95% CI]",
                 "unfinished", "errors n/tot"].freeze

      def initialize(measurements, auto: nil)
        @measurements = measurements.select(&:offered_rate_per_s)
        @auto = auto
      end

      def any? = !@measurements.empty?

      # Computed once: the sections and json's plain curves read the same.
      def curves
        @curves ||= @measurements.group_by { |m| [m.config_label, m.endpoint, m.concurrency] }
                                 .map do |(config, endpoint, concurrency), list|
          { "config" => config, "endpoint" => endpoint, "concurrency" => concurrency,
            "rows" => list.sort_by(&:offered_rate_per_s).map { |m| row(m) } }.merge(knee_of(config, list.first))
        end
      end

      # The curves with each CI as [low, high], for JSON.
      def plain_curves
        curves.map do |c|
          c.merge("rows" => c["rows"].map { |r| r.transform_values { |v| v.is_a?(Stats::Interval) ? v.to_a : v } })
        end
      end

      def sections
        curves.map do |c|
          Document::Section.new("rate_sweep",
                                "Latency against offered rate: #{c["config"]}, #{c["endpoint"]}, #{c["concurrency"]} connections",
                                [Grid.new(HEADERS, c["rows"].map { |r| cells(r) }, left: 0), *knee_text(c)])
        end
      end

      private

      # The config's knee that rates: auto found on this endpoint: {"knee" => {"rate", "interval", "slo"}}, or {}.
      def knee_of(config, measurement)
        knee = Array(@auto&.fetch("knees", nil)).find do |k|
          k["config"] == config && [measurement.path, measurement.endpoint].include?(k["endpoint"])
        end
        knee ? { "knee" => knee.slice("rate", "interval", "searches").merge("slo" => @auto["slo"]) } : {}
      end

      # The knee and where it lies: from independent searches (Tune::KneeSample),
      # or, in a run stored before tune searched more than once, between the
      # rate met on two deployments and the lowest that missed above it.
      def knee_text(curve)
        knee = curve["knee"] or return []
        low, high = knee["interval"]
        text = if knee["searches"]
                 searches = "from #{knee["searches"]} search#{"es" unless knee["searches"] == 1}"
                 where = low ? "knee in [#{format("%.0f", low)}, #{format("%.0f", high)}] req/s #{searches}" : searches
                 "met when confirmed; #{where}"
               else
                 where = high ? "between #{format("%g", low)} and #{format("%g", high)} req/s" : "above #{format("%g", low)}"
                 "met on two deployments; the knee lies #{where}"
               end
        [Document::Text.plain("Knee at #{knee["slo"]}: #{format("%g", knee["rate"])} req/s offered, #{text} (rates: auto)")]
      end

      def row(measurement)
        ok = measurement.ok?
        { "offered_per_s" => measurement.offered_rate_per_s, "ok" => ok,
          "achieved_per_s" => ok ? measurement.requests_per_s : nil, "achieved_ci" => ok ? measurement.requests_per_s_ci : nil,
          "p50_ms" => ok ? measurement.estimable_latency_ms(50) : nil,
          "p90_ms" => ok ? measurement.estimable_latency_ms(90) : nil,
          "p99_ms" => ok ? measurement.estimable_latency_ms(99) : nil, "p99_ci" => ok ? measurement.latency_ci_ms(99) : nil,
          "p50_ci" => ok ? measurement.latency_ci_ms(50) : nil, "p90_ci" => ok ? measurement.latency_ci_ms(90) : nil,
          "errors" => measurement.errors_n_tot, "reason" => measurement["reason"],
          "n" => ok ? measurement.latency_count : nil }.merge(all_requests(measurement))
      end

      # The percentiles over every request of the windows, and the share left without a response.
      def all_requests(measurement)
        return {} unless measurement.ok? && measurement.window_requests

        all_n = measurement.window_requests.total
        [50, 90, 99].each_with_object("unfinished_share" => measurement.unfinished_share, "all_n" => all_n) do |p, h|
          all = measurement.latency_all(p)
          h["p#{p}_all_ms"] = Measurement.estimable_from?(all_n, p) ? all.value_ms : nil
          h["p#{p}_censored"] = all.bound
        end
      end

      def cells(row)
        unless row["ok"]
          return [format("%g", row["offered_per_s"]), "failed: #{row["reason"].to_s.lines.first.to_s.strip}", "", "", "",
                  "", ""]
        end

        [format("%g", row["offered_per_s"]), with_ci(row["achieved_per_s"], row["achieved_ci"], "%.1f"),
         *[50, 90, 99].map { |p| bound(row, p) || measured(row, p, with_ci(row["p#{p}_ms"], row["p#{p}_ci"], "%.2f")) },
         unfinished(row["unfinished_share"]), row["errors"]]
      end

      def ms(value) = value ? format("%.2f", value) : "-"

      # A percentile is shown with Measurement::TAIL_REQUESTS requests beyond it (p99: 1,000), else "n=254, too few".
      def enough?(count, percentile) = count.nil? || Measurement.estimable_from?(count, percentile)

      def measured(row, percentile, text) = enough?(row["n"], percentile) ? text : "n=#{row["n"]}, too few"

      def bound(row, percentile)
        return nil unless row["p#{percentile}_censored"]
        return "n=#{row["all_n"]}, too few" unless enough?(row["all_n"], percentile)

        ">= #{ms(row["p#{percentile}_all_ms"])}"
      end

      def unfinished(share)
        return "-" unless share

        "#{(share * 100).round(share.positive? && share < 0.01 ? 1 : 0)} %"
      end

      def with_ci(value, ci, fmt)
        return "-" unless value

        ci ? "#{format(fmt, value)} [#{format(fmt, ci.low)}, #{format(fmt, ci.high)}]" : format(fmt, value)
      end
    end
  end
end
