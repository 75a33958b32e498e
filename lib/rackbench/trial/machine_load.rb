# frozen_string_literal: true

require "etc"

module Rackbench
  # How busy this machine is as a run is planned (RunEstimate): its load
  # average (the larger of the 1- and 5-minute figures) per CPU, read as a
  # share of the way from a quiet machine to a busy one. On this project's
  # 2-core VM, first runs of the quick suite at load 1-4 started, stopped,
  # checked and drained servers as fast as they do alone, and barely a
  # window was starved; from load 10 on (up to 45), every one of those took
  # several times longer and a third of the windows were measured again
  # (Window: starved), at any load up to 45 alike. Between the two, the
  # share goes linearly.
  #
  #   load = MachineLoad.now
  #   load.busy_share   # 0.0 quiet .. 1.0 busy
  #   load.to_s         # "load 17.3 on 2 CPUs"
  class MachineLoad
    QUIET_PER_CPU = 2.0 # at most this load a CPU: quiet
    BUSY_PER_CPU = 5.0 # at least this: busy

    # The machine now: nil load when /proc does not say (taken as quiet).
    def self.now(proc_dir: Procfs::DIR, cpus: Etc.nprocessors)
      new(load: Procfs.loadavgs(proc_dir: proc_dir)&.first(2)&.max, cpus: cpus)
    end

    attr_reader :load, :cpus

    def initialize(load:, cpus:)
      @load = load
      @cpus = [cpus.to_i, 1].max
    end

    def busy_share
      return 0.0 unless load

      ((load / cpus) - QUIET_PER_CPU).fdiv(BUSY_PER_CPU - QUIET_PER_CPU).clamp(0.0, 1.0)
    end

    # As a run stores it with its estimate (RunEstimate#learned), and reads it back.
    def to_h = { "load" => load, "cpus" => cpus }
    def self.from_h(stored) = new(load: stored["load"], cpus: stored["cpus"])

    def to_s = load ? "load #{format("%.1f", load)} on #{cpus} CPU#{"s" unless cpus == 1}" : "load unknown"
  end
end
