# frozen_string_literal: true

module Rackbench
  # Waits until no request of an earlier window (or warm-up) is still inside
  # the server, before the next one starts: a probe request answers promptly
  # AND the server's CPU is idle, or steady with no request inside it
  # (SteadyBackground: a JVM's background work on a loaded machine may never
  # read as idle). A server still starting processes is waited for longer:
  # each new one moves the deadline to timeout_s after it, up to
  # STARTING_WAIT_FACTOR times timeout_s in all, and it is not drained until
  # STARTED_QUIET_S after the last, however idle it reads (a hundred Unicorn workers,
  # each loading the app, took 60 s to start at load 35, and the cell "did
  # not drain within 30 s" at 41 % CPU in its first start). CPU alone is not enough:
  # a server full of queued 2-second sleeps uses no CPU (an ab run on unicorn
  # left such a queue, and the next cell's check timed out); a probe alone is
  # not enough for a server that answers probes on one thread while others
  # compute.
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
    STARTING_WAIT_FACTOR = 4
    STARTED_QUIET_S = 3.0 # no new process for this long before it is drained (one took 2.3 s at load 34)

    # probes: the requests it has sent the server so far. held_idle: the
    # connections the fresh server held (Sampler#held_connections).
    # background_share: the CPU share the server kept when the last wait
    # took it as idle with background work (nil: it was idle).
    attr_reader :path, :baseline_s, :held_idle, :neighbours_busy, :background_share, :probes

    def initialize(deployment, path:, timeout_s:)
      @deployment = deployment
      @path = path
      @timeout_s = timeout_s
      @probes = 0
    end

    def calibrate
      sampler = @deployment.sampler
      before = sampler.held_connections
      processes_before = sampler.tree_reading[2]
      @baseline_s = probe_s(@timeout_s)
      @held_idle = [before, sampler.held_connections].compact.min
      @processes = sampler.tree_reading[2]
      @grew_at = now if @processes && processes_before && @processes > processes_before
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
      @background_share = nil
      sampler = @deployment.sampler # a server on another host: read on its host
      steady = SteadyBackground.new(held_idle: @held_idle)
      deadline = Deadline.new(@timeout_s, @timeout_s * STARTING_WAIT_FACTOR, processes: @processes, grew_at: @grew_at)
      loop do
        busy, check = look(sampler)
        @processes = deadline.processes(check.processes)
        @grew_at = deadline.grew_at
        latency_s = waiting_probe_s(deadline.left_s)
        steady << check.tap { |c| c.prompt = latency_s <= prompt_s }
        unless deadline.starting_within?(STARTED_QUIET_S)
          return now - started if check.prompt && busy < IDLE_CPU_SHARE
          return now - started if (@background_share = steady.share)
        end
        raise never_drained(busy, latency_s, check, deadline) if deadline.passed?
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
      first = sampler.cpu_reading
      sleep CPU_WINDOW_S
      share_between(first, sampler.cpu_reading)
    end

    # [the server's CPU share over CPU_WINDOW_S, a SteadyBackground::Check at its end].
    def look(sampler)
      first = sampler.cpu_reading
      sleep CPU_WINDOW_S
      t_s, cpu_s, processes, rss_bytes = sampler.tree_reading
      [share_between(first, [t_s, cpu_s]), SteadyBackground::Check.new(t_s: t_s, cpu_s: cpu_s, processes: processes,
                                                                       rss_bytes: rss_bytes, held: sampler.held_connections)]
    end

    def share_between((first_s, first_cpu_s), (last_s, last_cpu_s))
      (last_cpu_s - first_cpu_s) / (last_s - first_s).clamp(0.001, nil)
    end

    def never_drained(busy, latency_s, check, deadline)
      took = latency_s.infinite? ? "got no answer before the deadline" : "took #{(latency_s * 1000).round} ms"
      held = check.held
      connections = held ? "; it held #{held} connection#{"s" unless held == 1} (idle: #{held_idle})" : ""
      ServiceError.new("the server did not drain within #{deadline.within_text}: its CPU " \
                       "was #{(busy * 100).round} % busy and #{path} #{took} (idle: #{(baseline_s.to_f * 1000).round} ms)" \
                       "#{connections}", log_tail: @deployment.children.first&.log_tail)
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end

require_relative "drain/deadline"
