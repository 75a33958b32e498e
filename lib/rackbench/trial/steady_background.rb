# frozen_string_literal: true

module Rackbench
  # Whether a server that never reads as idle is idle with background work
  # (a JVM compiling and collecting). Drain asks it after each of its checks.
  # It is, when over the last STEADY_S seconds of checks
  # - every probe was answered promptly,
  # - the server held no more connections than when it was fresh and idle,
  #   the same number at every check (no request inside it, none leaving),
  # - it had the same processes and its memory did not grow by more than
  #   RSS_GROWTH_SHARE: a server still starting workers is not idle (a
  #   hundred Unicorn workers, each loading the app, took 60 s at load 35,
  #   at 25-45 % of a CPU; once up they idle at 0-3 % with the probes),
  # - its CPU use did not fall (the later half's share at least FALL_RATIO
  #   of the earlier half's): a server finishing leftover work falls.
  # A server still answering leftover requests holds their connections (even
  # when their clients have left, until it writes the answer), so it is
  # waited for whatever its CPU does.
  #
  #   judge = SteadyBackground.new(held_idle: 0)
  #   judge << SteadyBackground::Check.new(t_s: 1.2, cpu_s: 3.4, processes: 1, rss_bytes: 9e8, held: 0, prompt: true)
  #   judge.share   # => 0.41: the CPU share it keeps (nil: not shown to be steady)
  class SteadyBackground
    STEADY_S = 3.0
    MIN_CHECKS = 4
    FALL_RATIO = 0.8
    FALL_SLACK = 0.03 # of a CPU: the clock ticks' rounding summed over a hundred processes
    RSS_GROWTH_SHARE = 0.02

    # t_s, cpu_s, processes, rss_bytes: the server's tree at a moment
    # (Sampler#tree_reading); held: its connections then (nil: unknown, as on
    # another host); prompt: whether the probe that followed was answered promptly.
    Check = Struct.new(:t_s, :cpu_s, :processes, :rss_bytes, :held, :prompt, keyword_init: true)

    # held_idle: the connections the server held fresh and idle (nil: unknown).
    def initialize(held_idle:)
      @held_idle = held_idle
      @checks = []
    end

    def <<(check)
      @checks << check
      self
    end

    # The CPU share the server keeps while idle (its later half's), or nil.
    def share
      span = last_span
      return nil unless span&.all?(&:prompt) && no_requests_inside?(span) && settled?(span)

      middle = span.index { |c| c.t_s >= (span.first.t_s + span.last.t_s) / 2 }.clamp(1, span.size - 2)
      earlier = cpu_share(span[..middle])
      later = cpu_share(span[middle..])
      later >= (earlier * FALL_RATIO) - FALL_SLACK ? later.round(3) : nil
    end

    private

    # The checks of the last STEADY_S seconds, once there are that many seconds
    # and MIN_CHECKS checks in them.
    def last_span
      from = @checks.rindex { |c| @checks.last.t_s - c.t_s >= STEADY_S }
      span = from && @checks[from..]
      span if span && span.size >= MIN_CHECKS
    end

    def no_requests_inside?(span)
      held = span.map(&:held).uniq
      !@held_idle.nil? && held.size == 1 && !held.first.nil? && held.first <= @held_idle
    end

    def settled?(span)
      span.map(&:processes).uniq.size == 1 &&
        span.map(&:rss_bytes).max <= span.first.rss_bytes * (1 + RSS_GROWTH_SHARE)
    end

    def cpu_share(checks)
      (checks.last.cpu_s - checks.first.cpu_s) / (checks.last.t_s - checks.first.t_s).clamp(0.001, nil)
    end
  end
end
