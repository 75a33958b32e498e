# frozen_string_literal: true

module Rackbench
  # What a run will cost, said before any server starts: its cells and
  # blocks, the starts the RepeatPolicy allows, and the wall time from the
  # plan's windows, warm-ups and each server's start (as the results
  # folder's latest runs measured it, BootHistory, else the adapter's
  # typical_boot_s) and stop (typical_stop_s), as the Runner would spend it:
  # the run's own set-up and tear-down (RUN_S), then per start, every config
  # of a level deployed, each cell's checks, warm-up and windows, and every
  # config stopped. A sequential run lies between two figures: every block
  # settled at the first look, and every block taken to its cap
  # (max_deployments, and max_cell_s seconds of load a cell, which the Runner
  # counts as measured).
  #
  # A window of a number of requests (ab -n) lasts what the server takes to
  # serve them, unknown before it is measured: it is planned at
  # PLANNED_REQUESTS_PER_S, and the estimate says so.
  #
  # The figure it leads with is learned (RunPace): the time the latest runs
  # here took per second of their plan, and how far between the first look
  # and the cap they went; both ends are said at that pace too. A finished
  # run stores what it learned (#learned, by the Runner). In a folder with
  # no such run, it is the plan at the starts the design's simulation
  # expects each block to take (ExpectedStarts, #expected_s).
  #
  #   estimate = RunEstimate.new(plan, policy, schedule, pace: RunPace.of(store))
  #   estimate.first_look_s   # 95.0, at the plan's pace
  #   estimate.cap_s          # 310.0
  #   estimate.about_s        # 240.0: 1.6x the plan, a quarter of the way to the cap
  #   estimate.to_s           # "12 cells in 4 blocks; 4 to 10 server starts each: about 4m00s (from ...); 2m32s if ..."
  class RunEstimate
    # Measured on this project's 2-core VM (first runs of the quick suite
    # into fresh folders, 2026-11-28, each step timed): at load 3-4 its
    # windows began 4.3 s apart (median of 21; 3 s of them load), the rest
    # being a cell's checks and drain calibration, a window's drain, the
    # engine's start and the samples; its starts took 0.84 s (median of 24,
    # Servers::Base.typical_boot_s) and its stops about 0.35 s a server.
    WINDOW_OVERHEAD_S = 0.6 # a window's drain, engine start and samples
    CHECK_S = 0.45 # a cell's answer check and drain calibration on a start
    RUN_S = 1.5 # the run's own setup and tear-down (0.9-1.6 s)
    # On a busy machine (MachineLoad#busy_share 1; load 17-22 on the 2
    # CPUs): servers' starts took 4-8 s (5.4 s a server on average) and stops
    # 0.1-1.9 s, about 5 times as long; checks and drains twice as long; and
    # a window 0.7 runs more (31 runs more for 45 windows: the starved ones
    # measured again, Window).
    BUSY_START_SLOWDOWN = 5.0
    BUSY_CHECK_SLOWDOWN = 2.0
    BUSY_WINDOWS_AGAIN = 0.7
    # A block of ratio: duet whose servers kept the CPU busy goes on in
    # ratio windows only after its first stage, any other in turns: which one
    # is not known before its servers are measured (the quick suite's
    # /sleep/50 went on in ratio windows when the machine was loaded, its
    # /hello in turns: thin idled in the duet), so half of each is planned.
    RATIO_ONLY_SHARE = 0.5
    MODEL = 2 # what a run's stored figures were planned with (#learned): RunPace reads its own model's only
    # The pace a request-count window is planned at: the request-count cells
    # of thin-nginx-2008 and lighttpd-proxy-2008 served 30 to 250 req/s here
    # (their duration_s, which such a window does not use, planned 1m38s for
    # a lighttpd-proxy-2008 run whose windows took 5 minutes).
    PLANNED_REQUESTS_PER_S = 100.0

    attr_reader :plan, :policy

    # expected: how many starts each block is expected to take
    # (ExpectedStarts: the design simulated), for a run with no history here.
    # load: how busy the machine is (MachineLoad; quiet when not given).
    def initialize(plan, policy, schedule, boots: BootHistory.new, pace: RunPace.new, expected: nil,
                   load: MachineLoad.new(load: nil, cpus: 1))
      @plan = plan
      @policy = policy
      @schedule = schedule
      @boots = boots
      @pace = pace
      @expected = expected
      @load = load
    end

    def first_look_s = @first_look_s ||= seconds(policy.starts)
    def cap_s = @cap_s ||= seconds(policy.auto? ? cap_starts : policy.starts, steady_s: steady_max_s)

    # The figure it leads with: at the pace and reach of the latest runs
    # here (RunPace), else at the starts the design's simulation expects.
    def about_s = @pace.learned? ? @pace.about_s(first_look_s, cap_s) : @pace.factor * expected_s

    # The plan at the starts each block is expected to take (ExpectedStarts):
    # start `epoch` costs each block's cells the share of blocks still open
    # then, and each unit's deployments the chance that any of its blocks is;
    # a block that may go on in ratio windows only (ratio: duet) is planned
    # half in those, half in turns (its servers' busy share is not known
    # before they are measured: Runner::Starts).
    def expected_s
      @expected_s ||= RUN_S + (1..(policy.auto? ? cap_starts : policy.starts)).sum do |epoch|
        start_s(epoch, SteadyWarmup.min_s, open: expected.open_share(epoch), ratio_only_share: RATIO_ONLY_SHARE)
      end
    end

    def expected = @expected ||= ExpectedStarts.new(plan.suite.data)

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
      RUN_S + (1..starts).sum { |epoch| start_s(epoch, steady_s) }
    end

    # What the plan allows, at its pace, for the starts a run made: each
    # cell's ({cell index => starts it took}; a cell absent took none).
    def done_s(starts_of)
      RUN_S + (1..starts_of.values.max.to_i).sum do |epoch|
        start_s(epoch, SteadyWarmup.min_s) { |c| starts_of[c.index].to_i >= epoch }
      end
    end

    # What a finished run stores for the next estimates (RunPace::Run):
    # starts_of as for #done_s, taken_s its wall time, boots the starts it
    # measured itself (BootHistory). Its plan, what it did and its ends are
    # planned again at those boots: the next estimate plans at the boots the
    # latest runs measured, so the pace it takes from this run is what the
    # boots do not explain (a busy machine's slower windows' overheads, the
    # gaps), never the boots counted twice.
    def learned(starts_of, taken_s, boots: @boots)
      own = RunEstimate.new(plan, policy, @schedule, boots: boots, load: @load)
      at_first = blocks_list.count { |b| b.cells.map { |c| starts_of[c.index].to_i }.max <= policy.starts }
      own.to_h.merge("about_s" => about_s.round(1), "done_s" => own.done_s(starts_of).round(1), "taken_s" => taken_s.round(1),
                     "blocks_at_first_look" => at_first, "model" => MODEL, "machine_load" => @load.to_h)
    end

    def blocks = units.sum(&:size)

    # "6 cells in 2 blocks; 3 to 8 server starts each: about 2m40s (from the
    # latest run here: ...); 1m50s if every comparison settles at the first
    # look, 4m10s if every one runs to its cap (notes)": both ends at the
    # pace the latest runs here went.
    def to_s
      head = "#{plan.size} cell#{"s" unless plan.size == 1} in #{blocks} block#{"s" unless blocks == 1}"
      about = "about #{duration(about_s)} (#{pace_text})"
      text = if (cap_s - first_look_s).abs < 1
               "#{head}; #{policy.starts} server start#{"s" unless policy.starts == 1} each: #{about}"
             else
               "#{head}; #{policy.starts} to #{cap_starts} server starts each: #{about}; " \
                 "#{duration(@pace.factor * first_look_s)} if every comparison settles at the first look, " \
                 "#{duration(@pace.factor * cap_s)} if every one runs to its cap"
             end
      notes = [(requests_text if requests), (steady_text if steady_cells.positive?), boots_text, load_text].compact
      notes.empty? ? text : "#{text} (#{notes.join("; ")})"
    end

    def to_h = { "cells" => plan.size, "blocks" => blocks, "first_look_s" => first_look_s.round(1), "cap_s" => cap_s.round(1) }

    private

    # Start `epoch` of every block: each unit's configs deployed (and
    # stopped after), then each of its cells checked, warmed up and measured
    # in that start's windows; with a block given, of the cells it selects
    # only. open: the share of blocks still open (ExpectedStarts; 1 for a
    # plan's ends).
    #
    # ratio: duet adds a ratio window a block (its configs loaded at once).
    # A block of two configs or more whose verdict its ratio windows decide
    # takes one window in turns a first-stage start (its servers taken as
    # busy); after the first stage, if its servers kept the CPU busy, ratio
    # windows only, else the policy's windows in turns (Runner::Starts):
    # ratio_only_share of those later starts planned the first way, the rest
    # the second (the plan's ends: in turns, the longer).
    def start_s(epoch, steady_s, open: 1.0, ratio_only_share: 0.0, &only)
      units.sum do |blocks|
        cells = blocks.flat_map(&:cells)
        cells = cells.select(&only) if only
        unit_open = 1 - ((1 - open)**blocks.size)
        (unit_open * deploy_s(cells)) +
          (open * blocks.sum { |block| block_s(block.cells & cells, epoch, steady_s, ratio_only_share) })
      end
    end

    # Every config of these cells started, and stopped once the start is
    # over: a start as the latest runs here measured it, else the adapter's
    # typical one, slower on a busy machine.
    def deploy_s(cells) = cells.map { |c| c.server_config["server"] }.uniq.sum { |name| boot_s(name) + stop_s(name) }

    def boot_s(server) = @boots.measured?(server) ? @boots.boot_s(server) : @boots.boot_s(server) * slow_starts
    def stop_s(server) = Servers.fetch(server).typical_stop_s * slow_starts

    # How much longer the CPU-bound steps around the windows take at the
    # machine's load (servers' starts and stops; checks and drains), and how
    # many runs a window takes with those measured again for being starved (Window).
    def slow_starts = busier(BUSY_START_SLOWDOWN)
    def slow = busier(BUSY_CHECK_SLOWDOWN)
    def runs_a_window = busier(1 + BUSY_WINDOWS_AGAIN)
    def busier(factor) = 1 + (@load.busy_share * (factor - 1))

    # A block's cells in start `epoch`: their windows in turns and its ratio window.
    def block_s(cells, epoch, steady_s, ratio_only_share)
      turns = ->(windows) { cells.sum { |cell| cell_s(windows, steady?(cell) ? steady_s : warmup_s) } }
      return turns.call(policy.windows_in_start(epoch)) + ratio_s(cells, false) unless ratio_decides? && cells.size >= 2
      return turns.call(Runner::Starts::RATIO_STAGE_WINDOWS) + ratio_s(cells, false) if epoch <= policy.starts

      (ratio_only_share * ratio_s(cells, true)) + ((1 - ratio_only_share) * turns.call(policy.windows_in_start(epoch)))
    end

    def ratio? = plan.suite["ratio"] == "duet" && !plan.suite["duet"] && !@schedule.sequential?
    def ratio_decides? = ratio? && policy.sequential? && !policy.questions?

    # A block's ratio window: its configs' loads at once, after a warm-up when it is the start's only window.
    def ratio_s(cells, ratio_only)
      return 0.0 unless ratio? && cells.size >= 2

      (CHECK_S * slow) + (ratio_only ? warmup_s : [warmup_s, Runner::SHORT_WARMUP_S].min) + window_s +
        (WINDOW_OVERHEAD_S * slow)
    end

    def blocks_list = units.flatten(1)

    def cell_s(windows, first_warmup_s)
      return 0.0 if windows.zero?

      each_s = (window_s + [warmup_s, Runner::SHORT_WARMUP_S].min + (WINDOW_OVERHEAD_S * slow)) * runs_a_window
      (CHECK_S * slow) + first_warmup_s + (windows * each_s)
    end

    def steady?(cell) = (@steady ||= {}).fetch(cell.server_config) { |c| @steady[c] = SteadyWarmup.planned?(plan.suite, c) }
    def steady_cells = plan.cells.count { |c| steady?(c) }
    def steady_max_s = (plan.suite["warmup_s_max"] || SteadyWarmup::DEFAULT_MAX_S).to_f

    def steady_text
      "#{steady_cells} cell#{"s" unless steady_cells == 1} warm#{"s" if steady_cells == 1} up until steady on each start: " \
        "#{duration(SteadyWarmup.min_s)} to #{duration(steady_max_s)}"
    end

    def pace_text
      return @pace.to_s if @pace.learned?

      "#{@pace}: each block planned at the starts its design's simulation expects, #{format("%.1f", expected.mean)} " \
        "on average"
    end

    def load_text
      return nil unless @load.busy_share.positive?

      "#{@load}: servers' starts and stops planned #{format("%.1f", slow_starts)}x slower, checks and drains " \
        "#{format("%.1f", slow)}x, #{format("%.1f", runs_a_window)} runs a window (starved ones measured again)"
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
