# frozen_string_literal: true

module Rackbench
  # A run's verdicts, decided once from its measurements (never in render
  # code): per block (endpoint, concurrency, offered rate) with two or more
  # measured configs, the fastest against the runner-up on throughput of
  # good responses, then the same pair on latency (p50 and p99, where enough
  # requests support them), and one Multiplicity line for the whole run.
  # Every report format, `compare` and the article read these.
  #
  #   v = Verdicts.new(measurements, margin: 0.05)
  #   v.entries        # [{"endpoint"=>, "concurrency"=>, "rate"=>, "size"=>, "comparison"=>, "metric"=>, "text"=>}]
  #   v.multiplicity   # Multiplicity over every comparison made
  class Verdicts
    LATENCY_METRICS = %w[latency_p50_ms latency_p99_ms].freeze

    def initialize(measurements, margin: Comparison::MARGIN, tune: false)
      @measurements = measurements
      @margin = margin
      @tune = tune
    end

    # Throughput entries, each followed by its latency entry when one could be formed.
    def entries
      @entries ||= blocks.flat_map do |(endpoint, concurrency, rate), list|
        best, second = list.sort_by { |m| -m.good_requests_per_s.to_f }
        speed = Comparison.new(best, second, margin: @margin)
        base = { "endpoint" => endpoint, "concurrency" => concurrency, "rate" => rate, "size" => list.size }
        where = "#{endpoint} c=#{concurrency}#{" at #{format("%g", rate)} req/s offered" if rate}"
        lead = list.size > 2 ? "fastest of #{list.size}, against the next: " : ""
        [base.merge("comparison" => speed, "metric" => speed.metric, "text" => "#{where}: #{lead}#{speed}"),
         latency_entry(base, where, best, second, open_loop: !rate.nil?)].compact
      end
    end

    def comparisons = entries.flat_map { |e| e["comparisons"] || [e["comparison"]] }

    def multiplicity = @multiplicity ||= Multiplicity.new(comparisons)

    private

    def blocks
      return [] if @tune # a tune run's cells are probes of one config at several rates

      @measurements.select(&:ok?).group_by { |m| [m.endpoint, m.concurrency, m.offered_rate_per_s] }
                   .select { |_, list| list.size >= 2 }
    end

    # "p50: thin lower p50, 1.10x [1.02, 1.19]; p99: ..." for the same pair;
    # closed-loop latency says so (a stalled server is under-sampled).
    def latency_entry(base, where, best, second, open_loop:)
      comparisons = LATENCY_METRICS.map { |metric| Comparison.new(best, second, metric: metric, margin: @margin) }
                                   .select { |c| c.measured? && !c.ci.level.zero? }
      return nil if comparisons.empty?

      kind = open_loop ? "latency" : "closed-loop latency"
      parts = comparisons.map { |c| "p#{c.percentile}: #{c}" }
      base.merge("comparison" => comparisons.last, "comparisons" => comparisons, "metric" => "latency",
                 "text" => "#{where} #{kind}: #{parts.join("; ")}")
    end
  end
end
