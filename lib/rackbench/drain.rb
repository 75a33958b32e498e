# frozen_string_literal: true

module Rackbench
  # Waits until no request of an earlier window (or warm-up) is still inside
  # the server, before the next one starts: the server's CPU is idle AND a
  # probe request answers promptly. CPU alone is not enough: a server full of
  # queued 2-second sleeps uses no CPU (an ab run on unicorn left such a
  # queue, and the next cell's check timed out); a probe alone is not enough
  # for a server that answers probes on one thread while others compute.
  #
  # Created by Window (and tune) once per deployment, after the verify step:
  #
  #   drain = Drain.new(deployment, path: "/hello", timeout_s: 30)
  #   drain.calibrate          # the probe's latency on the idle, fresh server
  #   waited_s = drain.wait    # before each window; ServiceError if it never drains
  class Drain
    IDLE_CPU_SHARE = 0.05
    PROMPT_FACTOR = 3          # "promptly": within 3x the idle latency ...
    PROMPT_SLACK_S = 0.05      # ... plus 50 ms
    CPU_WINDOW_S = 0.1

    attr_reader :path, :baseline_s

    def initialize(deployment, path:, timeout_s:)
      @deployment = deployment
      @path = path
      @timeout_s = timeout_s
    end

    def calibrate
      @baseline_s = probe_s(@timeout_s)
      self
    end

    # Seconds waited (0.0 when the server was already idle and prompt).
    def wait
      started = now
      deadline = started + @timeout_s
      last = nil
      loop do
        busy = cpu_share
        latency_s = probe_s(deadline - now)
        last = { busy: busy, latency_s: latency_s }
        return now - started if busy < IDLE_CPU_SHARE && latency_s <= prompt_s
        raise never_drained(last) if now > deadline
      end
    rescue SystemCallError, IOError => e
      raise ServiceError.new("drain: the probe request to #{path} failed: #{e.message}",
                             log_tail: @deployment.children.first&.log_tail)
    end

    def prompt_s = ((baseline_s || 0) * PROMPT_FACTOR) + PROMPT_SLACK_S

    private

    def probe_s(timeout_s)
      started = now
      Readiness.get(@deployment.target(path), timeout_s: [timeout_s, 0.5].max)
      now - started
    end

    def cpu_share
      sampler = Sampler.new(root_pids: @deployment.pids)
      first = sampler.take
      sleep CPU_WINDOW_S
      last = sampler.take
      (last.cpu_s - first.cpu_s) / (last.t_s - first.t_s).clamp(0.001, nil)
    end

    def never_drained(last)
      ServiceError.new("the server did not drain within #{@timeout_s} s: its CPU was #{(last[:busy] * 100).round} % busy " \
                       "and #{path} took #{(last[:latency_s] * 1000).round} ms (idle: #{(baseline_s.to_f * 1000).round} ms)",
                       log_tail: @deployment.children.first&.log_tail)
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
