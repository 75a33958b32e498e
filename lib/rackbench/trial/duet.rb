# frozen_string_literal: true

module Rackbench
  # The windows of one round loaded at the same time (suite key duet: true;
  # Bulej et al., "Duet benchmarking", ICPE 2020): each server tree in a CPU
  # group of equal weight (FairShare) on the same CPUs, every load begun at
  # one StartLine, each in a thread of its own; what another process takes
  # meanwhile hits all of them alike, so their ratio keeps it out. What a
  # duet measures is cost per request under a fair share of the CPU; for an
  # IO-bound endpoint the servers hardly compete and a duet buys nothing.
  # Created by the Runner, which prepares (checks, drains, warms up) the
  # windows before and keeps their repeats after.
  #
  #   duet = Duet.new(dependencies: deps, log_name: ->(window) { "native-r#{window.number}.out" })
  #   duet.measure(windows)   # => [[window, repeat or nil, error or nil], ...] in the windows' order
  #   duet.close              # removes the CPU groups
  class Duet
    def initialize(dependencies:, log_name:)
      @dependencies = dependencies
      @log_name = log_name
      @fair_share = FairShare.new(slots: 2)
    end

    # windows: the Runner's prepared windows (cell, live, load, dir, number),
    # each on a drained server. A window that fails is returned with its
    # error, never raised.
    def measure(windows)
      windows.each_with_index { |w, slot| @fair_share.assign(slot, w.live.trial.pids) }
      line = StartLine.new(windows.size)
      threads = windows.map do |window|
        partners = windows.reject { |w| w.equal?(window) }.flat_map { |w| w.live.trial.pids }
        Thread.new { [window, *load(window, partners, line)] }
      end
      threads.map(&:value)
    end

    def close = @fair_share.close

    private

    # [repeat, nil] or [nil, the error].
    def load(window, partners, line)
      repeat = window.live.trial.measure(window.load, dir: window.dir, dependencies: @dependencies, partners: partners,
                                                      drained: true, start_line: line, log_name: @log_name.call(window))
      repeat.noise["duet"] = @fair_share.to_s
      [repeat, nil]
    rescue ServiceError, ConfigError => e
      [nil, e]
    end
  end
end
