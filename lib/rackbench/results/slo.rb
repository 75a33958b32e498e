# frozen_string_literal: true

module Rackbench
  # A service-level objective a probe must meet: a latency percentile bound
  # and an error-share bound, parsed from the command line (tune --slo) or
  # from a suite's slo: (rates: auto). Tune's Knee and AutoRates decide with it.
  #
  #   slo = Slo.parse("p99<=100ms")              # errors <= 0.1 % by default
  #   slo = Slo.parse("p999<=1s,errors<=1%")
  #   slo.met?(result)  # latency from the merged histogram of the probe
  #   slo.tally(result) # [requests over the bound, requests judged]: what Knee decides on
  #   slo.requests_needed  # 1,000 for p99: a probe long enough to see its percentile
  class Slo
    PERCENTILES = { "p50" => 50, "p90" => 90, "p95" => 95, "p99" => 99, "p999" => 99.9 }.freeze
    UNITS_US = { "us" => 1, "ms" => 1000, "s" => 1_000_000 }.freeze
    DEFAULT_ERROR_SHARE = 0.001

    attr_reader :percentile_name, :latency_us, :error_share

    def self.parse(text)
      latency = nil
      errors = DEFAULT_ERROR_SHARE
      text.to_s.split(",").map(&:strip).each do |term|
        if (m = term.match(/\A(p50|p90|p95|p99|p999)\s*<=?\s*(\d+(?:\.\d+)?)\s*(us|ms|s)\z/))
          latency = [m[1], (m[2].to_f * UNITS_US.fetch(m[3])).round]
        elsif (m = term.match(/\Aerrors\s*<=?\s*(\d+(?:\.\d+)?)\s*%\z/))
          errors = m[1].to_f / 100
        else
          problem = "cannot read #{term.inspect}; write e.g. 'p99<=100ms' or 'p99<=100ms,errors<=1%'"
          raise ConfigError.new("--slo: #{problem}", key: "slo", problem: problem)
        end
      end
      unless latency
        problem = "needs a latency bound such as 'p99<=100ms'"
        raise ConfigError.new("--slo #{problem}", key: "slo", problem: problem)
      end

      new(*latency, errors)
    end

    def initialize(percentile_name, latency_us, error_share)
      @percentile_name = percentile_name
      @latency_us = latency_us
      @error_share = error_share
    end

    def percentile = PERCENTILES.fetch(percentile_name)

    # The probe's latency at the SLO's percentile, in microseconds.
    def latency_of(result)
      hist = result.histogram
      return result.latency_us[percentile_name] unless hist.is_a?(Array) && !hist.empty?

      Stats.histogram_percentile(hist, percentile)
    end

    def error_share_of(result) = result.total.positive? ? result.error_count.fdiv(result.total) : 1.0

    # The share of requests the percentile lets exceed the bound (0.01 for p99).
    def allowed_share = 1 - (percentile / 100.0)

    # Requests a decision needs to see the percentile's tail: as many over
    # the bound at the allowed share as make a percentile estimable
    # (Measurement::TAIL_REQUESTS; 1,000 for p99, 100 for p90).
    def requests_needed = (Measurement::TAIL_REQUESTS / allowed_share).round(6).ceil

    # [requests over the latency bound, requests judged] of a probe: every
    # request of its window (Result#window_requests), one left without a
    # response counted as over; else the completed responses.
    def tally(result)
      all = result.window_requests
      return over_and_total(result.histogram || []) unless all

      over, = over_and_total(all["histogram"] || [])
      [over + all["censored"].to_i, all["completed"].to_i + all["censored"].to_i]
    end

    # One probe on its own: at most the allowed share over the bound, and the errors within theirs.
    def met?(result)
      over, judged = tally(result)
      judged.positive? && over <= allowed_share * judged && error_share_of(result) <= error_share &&
        result.requests.to_i.positive?
    end

    def to_s = "#{percentile_name} <= #{format_us(latency_us)}, errors <= #{(error_share * 100).round(2)} %"

    def format_us(us) = us >= 1000 ? "#{(us / 1000.0).round(1)} ms" : "#{us} us"

    private

    def over_and_total(histogram) = [histogram.sum { |v, c| v > latency_us ? c : 0 }, histogram.sum(&:last)]
  end
end
