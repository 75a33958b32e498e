# frozen_string_literal: true

module Rackbench
  # A measured window in which no response completed, judged by the Window:
  #
  # - open loop with no request due in it: Poisson arrivals leave a window of
  #   d seconds at r req/s empty e^-(r d) of the time (a 1 s window at 0.7
  #   req/s: half the time). Nothing was asked of the server, so the window
  #   is kept, with a warning that says why it is empty;
  # - otherwise a ServiceError that tells a stalled server from a starved
  #   one: the errors, what other processes took of the measured CPUs, how
  #   many requests the engine sent in the window (and how many were still
  #   waiting at its end), the CPU the server used meanwhile, and how long
  #   the server's threads and the engine's waited, runnable, for a CPU
  #   (the scheduler's run-queue delay: a server that waited most of the
  #   load's length was starved; one that hardly waited stalled on its own).
  #
  #   empty = EmptyWindow.new(result, noise, server_cpu_s: 0.0, server_wait_s: 1.2)
  #   empty.nothing_due? ? result.warnings << empty.warning : raise(empty.error)
  #   empty.starved?   # the server or the engine waited for a CPU at least half the window's length
  class EmptyWindow
    # A server or engine that waited at least this share of the window's
    # length for a CPU (over the whole load: warm-up, window and grace) was
    # starved by the machine's other work. Seen here: puma x2:5 on a 0.5 s
    # window of /sleep/100 used 0.00 s of CPU and waited 0.55 s for one.
    STARVED_WAIT_SHARE = 0.5

    def initialize(result, noise, server_cpu_s:, server_wait_s: nil)
      @result = result
      @noise = noise
      @server_cpu_s = server_cpu_s
      @server_wait_s = server_wait_s
    end

    def starved?(share: STARVED_WAIT_SHARE)
      [@server_wait_s, engine_wait_s].compact.any? { |wait_s| wait_s >= share * @result.duration_s.to_f }
    end

    def nothing_due?
      @result.mode == "open" && !@result.window_requests.nil? && @result.window_requests["total"].to_i.zero?
    end

    def warning
      rate = @result.schedule["target_rate_per_s"].to_f
      chance = Math.exp(-rate * @result.duration_s.to_f)
      "no request was due in this #{@result.duration_s} s window at #{format("%g", rate)} req/s offered " \
        "(#{@result.schedule["arrivals"]} arrivals leave it empty #{(chance * 100).round} % of the time): " \
        "nothing was measured; a longer duration_s gives every window requests"
    end

    def error
      ServiceError.new("no request completed in the measured #{@result.duration_s} s " \
                       "(#{@result.error_count} errors#{others}): " \
                       "the server stalled, or the window is shorter than one response#{evidence}")
    end

    private

    def others
      share = @noise["other_cpu_share"]
      text = share ? "; other processes used #{(share * 100).round} % of the measured CPUs" : ""
      first = @noise["starved_other_cpu_share"]
      first ? "#{text}; measured again after a window they held at #{(first * 100).round} %" : text
    end

    # What the engine sent and the server did: no request sent means the load
    # never ran; sent requests and no server CPU, a server that never ran;
    # the waits for a CPU tell a starved server (or engine) from a stalled one.
    def evidence
      sent = @result.window_requests
      requests = sent && "the engine sent #{sent["total"].to_i} requests in it (#{sent["in_flight"].to_i} unanswered at its end)"
      cpu = @server_cpu_s && "the server used #{format("%.2f", @server_cpu_s)} s of CPU"
      cpu = "#{cpu} and waited #{format("%.2f", @server_wait_s)} s for one" if cpu && @server_wait_s
      engine = engine_wait_s && "the engine waited #{format("%.2f", engine_wait_s)} s for a CPU"
      parts = [requests, cpu, engine].compact
      parts.empty? ? "" : "; #{parts.join(", ")}"
    end

    def engine_wait_s = @result.client_cpu&.dig("wait_s")
  end
end
