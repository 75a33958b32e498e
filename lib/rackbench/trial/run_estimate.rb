# frozen_string_literal: true

module Rackbench
  # What a run will cost, said before any server starts: its cells and
  # blocks, the starts the RepeatPolicy allows, and the wall time from the
  # plan's windows, warm-ups and each server's typical start
  # (Servers::Base.typical_boot_s), as the Runner would spend it: per start,
  # every config of a level deployed, then each cell's checks, warm-up and
  # windows. A sequential run lies between two figures: every block settled
  # at the first look, and every block taken to its cap.
  #
  #   estimate = RunEstimate.new(plan, policy, schedule)
  #   estimate.first_look_s   # 95.0
  #   estimate.cap_s          # 310.0
  #   estimate.to_s           # "12 cells in 4 blocks; 4 to 10 server starts each: about 1m35s (...) to 5m10s"
  class RunEstimate
    WINDOW_OVERHEAD_S = 0.4 # a window's drain, engine start and samples
    CHECK_S = 0.3 # a cell's answer check and drain calibration on a start

    attr_reader :plan, :policy

    def initialize(plan, policy, schedule)
      @plan = plan
      @policy = policy
      @schedule = schedule
    end

    def first_look_s = seconds(policy.starts)
    def cap_s = seconds(policy.auto? ? policy.max_starts : policy.starts)

    # Seconds for every block taking `starts` starts.
    def seconds(starts)
      (1..starts).sum { |epoch| start_s(policy.windows_in_start(epoch)) }
    end

    def blocks = units.sum(&:size)

    def to_s
      head = "#{plan.size} cell#{"s" unless plan.size == 1} in #{blocks} block#{"s" unless blocks == 1}"
      low = first_look_s
      high = cap_s
      if (high - low).abs < 1
        "#{head}; #{policy.starts} server start#{"s" unless policy.starts == 1} each: about #{duration(low)}"
      else
        "#{head}; #{policy.starts} to #{policy.max_starts} server starts each: about #{duration(low)} if every " \
          "comparison settles at the first look, #{duration(high)} if every one runs to its cap"
      end
    end

    def to_h = { "cells" => plan.size, "blocks" => blocks, "first_look_s" => first_look_s.round(1), "cap_s" => cap_s.round(1) }

    private

    # One start of every block: each unit's configs deployed, then each of its
    # cells checked, warmed up and measured in `windows` windows.
    def start_s(windows)
      units.sum do |blocks|
        configs = blocks.flat_map(&:cells).map(&:server_config).uniq
        configs.sum { |c| Servers.fetch(c["server"]).typical_boot_s } +
          (blocks.sum { |block| block.cells.size } * cell_s(windows))
      end
    end

    def cell_s(windows)
      return 0.0 if windows.zero?

      window_s = duration_s + [warmup_s, Runner::SHORT_WARMUP_S].min + WINDOW_OVERHEAD_S
      CHECK_S + warmup_s + (windows * window_s)
    end

    def duration_s = (plan.suite["duration_s"] || Suite::KEYS.fetch("duration_s").default).to_f
    def warmup_s = (plan.suite["warmup_s"] || Suite::KEYS.fetch("warmup_s").default).to_f

    def units
      @units ||= if @schedule.sequential?
                   plan.groups.map do |g|
                     g.cells.map { |c| Schedule::Block.new(concurrency: c.concurrency, endpoint: c.endpoint["name"], cells: [c]) }
                   end
                 else
                   @schedule.levels(plan.cells).map(&:last)
                 end
    end

    def duration(seconds)
      s = seconds.round
      s >= 3600 ? format("%dh%02dm", s / 3600, (s % 3600) / 60) : format("%dm%02ds", s / 60, s % 60)
    end
  end
end
