# frozen_string_literal: true

module Rackbench
  # What one load run measured, in the one shape every engine returns.
  # Every numeric field carries its unit in its name; latencies are microseconds.
  #
  #   errors:         {"connect"=>0, "read"=>0, "write"=>0, "timeout"=>0, "status"=>0, ...}
  #                   ("status" counts responses outside 2xx/3xx)
  #   status_counts:  {"200"=>1234}
  #   latency_us:     {"mean"=>, "p50"=>, "p90"=>, "p99"=>, "max"=>, ...}
  #   series:         [{"t_s"=>1, "requests"=>, "errors"=>, "p50_us"=>, "p99_us"=>, "max_us"=>}]
  #   command:        the engine's argv, exactly as run
  #   endpoints:      a traffic mix's members (native engine), else nil:
  #                   [{"name"=>, "weight"=>, "method"=>, "requests"=>, "requests_per_s"=>, "non_success"=>,
  #                     "errors"=>{"check"=>, "other"=>}, "latency_us"=>{"mean", "p50", "p90", "p99", "max"}, "histogram"=>}]
  #   hosts:          load from several hosts (Result.merge): each host's own Result as a Hash, plus
  #                   "host", "clock_offset_s", "clock_uncertainty_s", "started_at_us" (when load began, in
  #                   this machine's clock), "client_cpu"; else nil
  #   window_requests: (native engine) every request of the window, scheduled (open loop) or issued
  #                   (closed loop) in it, followed to its end: {"total", "completed", "failed", "censored",
  #                   "timeout", "in_flight", "unsent", "histogram" (completed latencies), "censored_histogram"
  #                   (ages of those without a response: lower bounds)}; read through WindowRequests; else nil
  #   schedule:       how load was offered: {"mode" => "open"|"closed", "target_rate_per_s", "arrivals"
  #                   ("uniform"|"poisson", open loop), "seed"}; nil when the engine did not say
  #
  # histogram and latency_us describe the responses completed in the window
  # (what req/s counts); window_requests the window's requests, completed or not.
  Result = Struct.new(
    :engine, :requests, :duration_s, :requests_per_s, :bytes, :latency_us, :errors,
    :status_counts, :reconnects, :series, :histogram, :warnings, :command, :raw, :endpoints, :hosts,
    :window_requests, :schedule,
    keyword_init: true
  ) do
    def self.from_h(hash)
      new(**hash.transform_keys(&:to_sym).slice(*members))
    end

    def initialize(**)
      super
      self.errors = self.class::ERROR_KINDS.to_h { |k| [k, 0] }.merge((errors || {}).transform_keys(&:to_s))
      self.latency_us ||= {}
      self.status_counts ||= {}
      self.series ||= []
      self.warnings ||= []
      self.reconnects ||= 0
    end

    def error_count
      errors.values.sum
    end

    # Requests attempted: the completed ones plus those that failed without a response.
    def total
      requests + errors.except("status", "check").values.sum
    end

    def to_h
      super.except(:raw).transform_keys(&:to_s)
    end

    # Open loop (requests on a schedule, latency from each one's scheduled
    # time) or closed loop (latency from the send on a free connection):
    # "open", "closed", or nil when the engine did not record it.
    def mode = schedule&.dig("mode")
  end
  Result::ERROR_KINDS = %w[connect read write timeout status malformed check].freeze
  require_relative "result/merge"
end
