# frozen_string_literal: true

module Rackbench
  # What one load run measured, in the one shape every engine returns.
  # Every numeric field carries its unit in its name; latencies are microseconds.
  #
  #   errors:         {"connect"=>0, "read"=>0, "write"=>0, "timeout"=>0, "status"=>0, "check"=>0, ...}
  #                   ("status": answers whose status the AnswerRule did not expect, 2xx/3xx by
  #                   default; "check": an expected status without the expected body text; the
  #                   native engine counts both, each failed answer once)
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
  #   sent_bytes:     (native engine) bytes written in the window; nil from other engines
  #   body_bytes:     (native) the completed responses' bodies as sent (compressed when encoded)
  #   decoded_bytes:  (native) the same bodies decoded (gzip: by its trailer's size)
  #   gzip_responses: (native) responses with Content-Encoding: gzip
  #   clients:        (native, with slow clients) {"fast" => {...}, "slow" => {...}}: each group of
  #                   connections measured apart; read through #fast_clients and #slow_clients
  #                   (ClientGroup); nil without slow clients
  #   warning_codes:  (native) the engine's warnings as data, in the order of warnings:
  #                   [{"code" => "shortfall", "served" => 23, "due" => 238, ...}]; read through
  #                   #engine_warnings (EngineWarning); codes in ext/rackbench_load/README.md
  #   warmup_requests: (native) responses completed during the run's own warm-up (load.warmup_s):
  #                   never counted in the window, but what warmed the server; nil from other engines
  #   client_cpu:     (native) the load generator's own CPU: {"user_s", "sys_s", "max_thread_share",
  #                   "wait_s" (its threads' time runnable but waiting for a CPU)}; nil from others
  #   start_late_s:   (native, given load.start_at) how long after that instant the load began
  #
  # histogram and latency_us describe the responses completed in the window
  # (what req/s counts); window_requests the window's requests, completed or not.
  Result = Struct.new(
    :engine, :requests, :duration_s, :requests_per_s, :bytes, :latency_us, :errors,
    :status_counts, :reconnects, :series, :histogram, :warnings, :command, :raw, :endpoints, :hosts,
    :window_requests, :schedule, :sent_bytes, :body_bytes, :decoded_bytes, :gzip_responses, :clients,
    :warning_codes, :warmup_requests, :client_cpu, :start_late_s,
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

    # The full-speed connections measured apart from slow ones (ClientGroup), or nil without slow clients.
    def fast_clients = clients && Result::ClientGroup.new("fast", clients["fast"])

    # The slow connections (ClientGroup): their counts, latency and the pace they held; nil without them.
    def slow_clients = clients && Result::ClientGroup.new("slow", clients["slow"])

    # The engine's warnings as values (EngineWarning), each with its code, figures and sentence.
    def engine_warnings
      Array(warning_codes).each_with_index.map do |coded, i|
        Result::EngineWarning.new(code: coded["code"], figures: coded.except("code"), text: warnings[i])
      end
    end
  end
  Result::ERROR_KINDS = %w[connect read write timeout status malformed check].freeze
  require_relative "result/merge"
  require_relative "result/client_group"
  require_relative "result/engine_warning"
end
