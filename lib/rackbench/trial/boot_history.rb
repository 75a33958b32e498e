# frozen_string_literal: true

module Rackbench
  # Server starts as a results folder's latest runs measured them: the
  # seconds from a deployment's start to every process answering, kept by
  # each deployment's first window (resources["boot_s"], read alone:
  # Store#boot_seconds), by server adapter.
  # RunEstimate plans a start at their median, and at the adapter's
  # typical_boot_s where none was measured (a fresh folder, a new server).
  #
  #   boots = BootHistory.of(store)   # the latest RUNS runs
  #   boots.boot_s("puma")            # 2.7 (measured) or 1.5 (typical)
  #   boots.measured?("puma")         # true
  class BootHistory
    RUNS = 5

    def self.of(store, runs: RUNS) = measured(store.boot_seconds(store.runs(limit: runs).map { |run| run["id"] }))

    # seen: {server adapter name => [seconds each start took]}.
    def self.measured(seen) = new(seen.reject { |_, boots| boots.empty? }.transform_values { |boots| Stats.median(boots) })

    # median_s: {server adapter name => seconds}
    def initialize(median_s = {})
      @median_s = median_s
    end

    def boot_s(server) = @median_s.fetch(server) { Servers.fetch(server).typical_boot_s }
    def measured?(server) = @median_s.key?(server)
  end
end
