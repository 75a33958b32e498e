# frozen_string_literal: true

require_relative "empty_window"

module Rackbench
  # A window in which requests completed but the load generator was kept off
  # its CPU: its threads waited, runnable, for a CPU at least half the
  # engine's run each (its warm-up, when in the same run, and the window)
  # while it used little of the CPUs it may run on, so other processes held
  # them. Such a window counts what the machine's other
  # work let the engine send, not what the server could serve: in two
  # whole-suite runs at load 13 one start of ab_test's 200 ms app served a
  # fraction of its 40 req/s (p99 near 1.1 s), and by hand, with the engine
  # pinned to a CPU other runs' servers were pinned to, a start counted 6
  # req/s while its engine waited 1.30 s for a CPU and ran 0.03 s (the same
  # version's other starts: 35 to 37 req/s, waits 0.15 to 0.26 s).
  #
  # An engine that is busy itself (more threads than its CPUs, each running)
  # waits as long but uses its CPUs: not starved. The window (Window#measure)
  # is measured once more; the second counts whatever it measured.
  #
  #   StarvedEngine.new(result, length_s: 1.5, threads: 1, cpus: 1).starved?
  class StarvedEngine
    WAIT_SHARE = EmptyWindow::STARVED_WAIT_SHARE # of the run's length, waited by each engine thread on average
    BUSY_SHARE = 0.25 # of its CPUs' time over the run's length, at most used by the engine

    # length_s: the engine's run (warm-up in it included); threads: the
    # engine's; cpus: how many CPUs it may run on.
    def initialize(result, length_s:, threads:, cpus:, wait_share: WAIT_SHARE)
      @result = result
      @length_s = length_s.to_f
      @wait_share = wait_share
      @threads = [threads.to_i, 1].max
      @cpus = [cpus.to_i, 1].max
    end

    def starved?
      cpu = @result.client_cpu
      return false unless cpu && cpu["wait_s"] && @length_s.positive?

      used_s = cpu["user_s"].to_f + cpu["sys_s"].to_f
      cpu["wait_s"] / @threads >= @wait_share * @length_s && used_s <= BUSY_SHARE * @length_s * @cpus
    end

    # What the noise record keeps of the first window.
    def wait_s = @result.client_cpu&.dig("wait_s")
  end
end
