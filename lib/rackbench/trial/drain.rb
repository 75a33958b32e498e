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

    NEIGHBOUR_WAIT_S = 5

    # probes: the requests it has sent the server so far.
    attr_reader :path, :baseline_s, :neighbours_busy, :probes

    def initialize(deployment, path:, timeout_s:)
      @deployment = deployment
      @path = path
      @timeout_s = timeout_s
      @probes = 0
    end

    def calibrate
      @baseline_s = probe_s(@timeout_s)
      self
    end

    # Seconds waited (0.0 when the server was already idle and prompt).
    # neighbours: pids of the other deployments running side by side (their
    # idle CPU is waited for too, up to NEIGHBOUR_WAIT_S: a JVM compiling after
    # its own window must not run inside the next config's; if one stays busy,
    # the window goes ahead and #neighbours_busy records its CPU share).
    def wait(neighbours: [])
      started = now
      @neighbours_busy = wait_for_neighbours(neighbours)
      deadline = now + @timeout_s
      loop do
        busy = cpu_share(@deployment.sampler) # a server on another host: read on its host
        latency_s = waiting_probe_s(deadline - now)
        return now - started if busy < IDLE_CPU_SHARE && latency_s <= prompt_s
        raise never_drained(busy, latency_s) if now > deadline
      end
    rescue SystemCallError, IOError => e
      raise ServiceError.new("drain: the probe request to #{path} failed: #{e.message}",
                             log_tail: @deployment.children.first&.log_tail)
    end

    def prompt_s = ((baseline_s || 0) * PROMPT_FACTOR) + PROMPT_SLACK_S

    # nil once the neighbours are idle; their CPU share if they are still
    # busy after NEIGHBOUR_WAIT_S.
    def wait_for_neighbours(pids)
      return nil if pids.empty?

      deadline = now + NEIGHBOUR_WAIT_S
      idle_windows = 0
      loop do
        share = cpu_share(Sampler.new(root_pids: pids))
        idle_windows = share < IDLE_CPU_SHARE ? idle_windows + 1 : 0
        return nil if idle_windows >= 2 # two windows in a row: not a pause between bursts
        return share.round(3) if now > deadline
      end
    end

    private

    def probe_s(timeout_s)
      @probes += 1
      started = now
      Readiness.get(@deployment.target(path), timeout_s: [timeout_s, 0.5].max)
      now - started
    end

    # The probe's latency while waiting; infinite when no answer came before
    # the deadline (its request still queued behind the window's): not drained.
    def waiting_probe_s(timeout_s)
      probe_s(timeout_s)
    rescue Readiness::NoAnswer
      Float::INFINITY
    end

    def cpu_share(sampler)
      first_s, first_cpu_s = sampler.cpu_reading
      sleep CPU_WINDOW_S
      last_s, last_cpu_s = sampler.cpu_reading
      (last_cpu_s - first_cpu_s) / (last_s - first_s).clamp(0.001, nil)
    end

    def never_drained(busy, latency_s)
      took = latency_s.infinite? ? "got no answer before the deadline" : "took #{(latency_s * 1000).round} ms"
      ServiceError.new("the server did not drain within #{@timeout_s} s: its CPU was #{(busy * 100).round} % busy " \
                       "and #{path} #{took} (idle: #{(baseline_s.to_f * 1000).round} ms)",
                       log_tail: @deployment.children.first&.log_tail)
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
