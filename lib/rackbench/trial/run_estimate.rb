# frozen_string_literal: true

module Rackbench
  # What a run will cost, said before any server starts: its cells and
  # blocks, the starts the RepeatPolicy allows, and the wall time from the
  # plan's windows, warm-ups and each server's start (as the results
  # folder's latest runs measured it, BootHistory, else the adapter's
  # typical_boot_s), as the Runner would spend it: per start,
  # every config of a level deployed, then each cell's checks, warm-up and
  # windows. A sequential run lies between two figures: every block settled
  # at the first look, and every block taken to its cap (max_deployments, and
  # max_cell_s seconds of load a cell, which the Runner counts as measured).
  #
  # A window of a number of requests (ab -n) lasts what the server takes to
  # serve them, unknown before it is measured: it is planned at
  # PLANNED_REQUESTS_PER_S, and the estimate says so.
  #
  #   estimate = RunEstimate.new(plan, policy, schedule)
  #   estimate.first_look_s   # 95.0
  #   estimate.cap_s          # 310.0
  #   estimate.to_s           # "12 cells in 4 blocks; 4 to 10 server starts each: about 1m35s (...) to 5m10s"
  class RunEstimate
    WINDOW_OVERHEAD_S = 0.4 # a window's drain, engine start and samples
    CHECK_S = 0.3 # a cell's answer check and drain calibration on a start
    # The pace a request-count window is planned at: the request-count cells
    # of thin-nginx-2008 and lighttpd-proxy-2008 served 30 to 250 req/s here
    # (their duration_s, which such a window does not use, planned 1m38s for
    # a lighttpd-proxy-2008 run whose windows took 5 minutes).
    PLANNED_REQUESTS_PER_S = 100.0

    attr_reader :plan, :policy

    def initialize(plan, policy, schedule, boots: BootHistory.new)
      @plan = plan
      @policy = policy
      @schedule = schedule
      @boots = boots
    end

    def first_look_s = seconds(policy.starts)
    def cap_s = seconds(policy.auto? ? cap_starts : policy.starts, steady_s: steady_max_s)

    # The starts a cell gets at most: max_deployments, or fewer where its
    # windows reach max_cell_s seconds of load first (never fewer than the
    # first look's).
    def cap_starts
      by_load = (policy.max_cell_s / (policy.windows * (window_s + [warmup_s, Runner::SHORT_WARMUP_S].min))).ceil
      by_load.clamp(policy.starts, policy.max_starts)
    end

    # Seconds for every block taking `starts` starts, a steady warm-up
    # (SteadyWarmup) taking steady_s: its shortest, or (cap_s) warmup_s_max.
    def seconds(starts, steady_s: SteadyWarmup.min_s)
      (1..starts).sum { |epoch| start_s(policy.windows_in_start(epoch), steady_s) }
    end

    def blocks = units.sum(&:size)

    def to_s
      head = "#{plan.size} cell#{"s" unless plan.size == 1} in #{blocks} block#{"s" unless blocks == 1}"
      low = first_look_s
      high = cap_s
      text = if (high - low).abs < 1
               "#{head}; #{policy.starts} server start#{"s" unless policy.starts == 1} each: about #{duration(low)}"
             else
               "#{head}; #{policy.starts} to #{cap_starts} server starts each: about #{duration(low)} if every " \
                 "comparison settles at the first look, #{duration(high)} if every one runs to its cap"
             end
      notes = [(requests_text if requests), (steady_text if steady_cells.positive?), boots_text].compact
      notes.empty? ? text : "#{text} (#{notes.join("; ")})"
    end

    def to_h = { "cells" => plan.size, "blocks" => blocks, "first_look_s" => first_look_s.round(1), "cap_s" => cap_s.round(1) }

    private

    # One start of every block: each unit's configs deployed, then each of its
    # cells checked, warmed up and measured in `windows` windows.
    def start_s(windows, steady_s)
      units.sum do |blocks|
        cells = blocks.flat_map(&:cells)
        cells.map(&:server_config).uniq.sum { |c| @boots.boot_s(c["server"]) } +
          cells.sum { |cell| cell_s(windows, steady?(cell) ? steady_s : warmup_s) }
      end
    end

    def cell_s(windows, first_warmup_s)
      return 0.0 if windows.zero?

      each_s = window_s + [warmup_s, Runner::SHORT_WARMUP_S].min + WINDOW_OVERHEAD_S
      CHECK_S + first_warmup_s + (windows * each_s)
    end

    def steady?(cell) = (@steady ||= {}).fetch(cell.server_config) { |c| @steady[c] = SteadyWarmup.planned?(plan.suite, c) }
    def steady_cells = plan.cells.count { |c| steady?(c) }
    def steady_max_s = (plan.suite["warmup_s_max"] || SteadyWarmup::DEFAULT_MAX_S).to_f

    def steady_text
      "#{steady_cells} cell#{"s" unless steady_cells == 1} warm#{"s" if steady_cells == 1} up until steady on each start: " \
        "#{duration(SteadyWarmup.min_s)} to #{duration(steady_max_s)}"
    end

    # Which servers' starts earlier runs in this results folder measured, or nil.
    def boots_text
      measured = plan.cells.map { |c| c.server_config["server"] }.uniq.select { |name| @boots.measured?(name) }
      return nil if measured.empty?

      "starts of #{measured.join(", ")} as measured by the latest runs here: " +
        measured.map { |name| "#{format("%.1f", @boots.boot_s(name))} s" }.join(", ")
    end

    # A window's seconds: its duration_s, or its requests at the planned pace.
    def window_s = requests ? requests / PLANNED_REQUESTS_PER_S : duration_s

    def requests_text
      "windows of #{requests} requests planned at #{PLANNED_REQUESTS_PER_S.round} req/s, #{duration(window_s)} each: " \
        "they take what the servers need"
    end

    def requests = plan.suite["requests"]
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
