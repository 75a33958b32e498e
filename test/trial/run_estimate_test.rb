# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What a run will cost, from its plan alone: every start deploys each
  # config of a level (and stops it), then checks, warms up and measures
  # each cell; the run sets itself up and tears down once.
  class RunEstimateTest < Minitest::Test
    TWO = { "servers" => [{ "server" => "puma" }, { "server" => "thin" }] }.freeze
    CELL_S = RunEstimate::CHECK_S + 1 + (2 + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S)

    # A block's share still open at each start, as ExpectedStarts gives it.
    FakeExpected = Struct.new(:shares, :mean) do
      def open_share(epoch) = shares.fetch(epoch - 1, 0.0)
    end

    SOME_OPEN = FakeExpected.new([1.0, 1.0, 1.0, 0.5, 0.3, 0.2], 4.0)

    def estimate(extra, boots = BootHistory.new, pace = RunPace.new, expected: SOME_OPEN, load: nil)
      suite = Suite.load(write_suite({ "repeats" => "auto", "duration_s" => 2, "warmup_s" => 1, "windows" => 1,
                                       "deployments" => 3, "max_deployments" => 6, "max_cell_s" => 100,
                                       "stopping" => "sequential", "ratio" => "turns" }.merge(extra)))
      RunEstimate.new(Plan.new(suite), RepeatPolicy.new(suite.data), Schedule.new(order: "interleaved", seed: 1),
                      boots: boots, pace: pace, expected: expected, load: load || MachineLoad.new(load: 0.5, cpus: 2))
    end

    # A server's deployment started and stopped, at the typical figures.
    def deploy_s(server) = Servers.fetch(server).typical_boot_s + Servers.fetch(server).typical_stop_s

    # A start of one cell (puma's, at the typical boot) as the plan allows it.
    def start_s(server = "puma") = deploy_s(server) + CELL_S

    def test_a_start_costs_the_boots_and_stops_of_its_configs_and_each_cells_checks_warm_up_and_windows
      e = estimate(TWO)
      deploys = deploy_s("puma") + deploy_s("thin")
      assert_in_delta RunEstimate::RUN_S + (3 * (deploys + (2 * CELL_S))), e.first_look_s, 1e-9
      assert_in_delta RunEstimate::RUN_S + (6 * (deploys + (2 * CELL_S))), e.cap_s, 1e-9
    end

    # ratio: duet: a ratio window a block every start of the first stage,
    # loaded at once; after it, ratio windows only (each after the cells'
    # warm-up) where the servers were busy, windows in turns where one idled:
    # the cap plans the longer, the figure RATIO_ONLY_SHARE of the first.
    def test_ratio_windows_cost_one_window_a_block_and_later_starts_are_planned_partly_ratio_only_partly_in_turns
      open = FakeExpected.new([1.0, 1.0, 1.0, 1.0, 1.0, 1.0], 6.0)
      e = estimate(TWO.merge("ratio" => "duet"), expected: open)
      deploys = deploy_s("puma") + deploy_s("thin")
      ratio = RunEstimate::CHECK_S + Runner::SHORT_WARMUP_S + 2 + RunEstimate::WINDOW_OVERHEAD_S
      ratio_only = RunEstimate::CHECK_S + 1 + 2 + RunEstimate::WINDOW_OVERHEAD_S
      assert_in_delta RunEstimate::RUN_S + (3 * (deploys + (2 * CELL_S) + ratio)), e.first_look_s, 1e-9
      assert_in_delta e.first_look_s + (3 * (deploys + (2 * CELL_S))), e.cap_s, 1e-9
      later = deploys + (RunEstimate::RATIO_ONLY_SHARE * ratio_only) + ((1 - RunEstimate::RATIO_ONLY_SHARE) * 2 * CELL_S)
      assert_in_delta e.first_look_s + (3 * later), e.expected_s, 1e-9
      two = estimate(TWO.merge("ratio" => "duet", "windows" => 2), expected: open)
      assert_in_delta e.first_look_s, two.first_look_s, 1e-9, "one window in turns a first-stage start, as Runner::Starts"
      window = 2 + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S
      assert_in_delta e.cap_s + (3 * 2 * window), two.cap_s, 1e-9, "the cap: two in turns a later start"
    end

    # Each block's cells cost a start's share of the blocks still open then;
    # the unit's deployments, the chance that any of its blocks is.
    def test_the_figure_plans_each_start_at_the_share_of_blocks_the_design_expects_still_open
      open = FakeExpected.new([1.0, 1.0, 1.0, 0.5, 0.2], 3.7)
      e = estimate(TWO.merge("endpoints" => ["/hello", "/sleep/1"]), expected: open)
      deploys = deploy_s("puma") + deploy_s("thin")
      start = ->(share) { ((1 - ((1 - share)**2)) * deploys) + (share * 4 * CELL_S) }
      assert_in_delta e.first_look_s + start.call(0.5) + start.call(0.2), e.expected_s, 1e-9
      assert_in_delta e.expected_s, e.about_s, 1e-9, "at the default pace: the plan as it is"
    end

    # Busy: servers' starts and stops BUSY_START_SLOWDOWN times longer (a
    # start the latest runs here measured stays as measured), checks and
    # drains BUSY_CHECK_SLOWDOWN, and each window measured
    # 1 + BUSY_WINDOWS_AGAIN times; half way between, half of that.
    def test_on_a_busy_machine_starts_stops_and_checks_take_longer_and_starved_windows_are_measured_again
      quiet = estimate(TWO)
      busy = estimate(TWO, load: MachineLoad.new(load: 30.0, cpus: 2))
      starts = RunEstimate::BUSY_START_SLOWDOWN
      checks = RunEstimate::BUSY_CHECK_SLOWDOWN
      again = 1 + RunEstimate::BUSY_WINDOWS_AGAIN
      window = (2 + Runner::SHORT_WARMUP_S + (RunEstimate::WINDOW_OVERHEAD_S * checks)) * again
      start = (starts * (deploy_s("puma") + deploy_s("thin"))) + (2 * ((RunEstimate::CHECK_S * checks) + 1 + window))
      assert_in_delta RunEstimate::RUN_S + (3 * start), busy.first_look_s, 1e-9
      half = estimate(TWO, load: MachineLoad.new(load: 7.0, cpus: 2))
      assert_operator half.first_look_s, :>, quiet.first_look_s
      assert_operator half.first_look_s, :<, busy.first_look_s
      assert_includes busy.to_s, "load 30.0 on 2 CPUs: servers' starts and stops planned #{format("%.1f", starts)}x slower, " \
                                 "checks and drains #{format("%.1f", checks)}x, #{format("%.1f", again)} runs a window " \
                                 "(starved ones measured again)"
      refute_match "load", quiet.to_s
      measured = estimate(TWO, BootHistory.new({ "puma" => 6.5 }), load: MachineLoad.new(load: 30.0, cpus: 2))
      assert_in_delta busy.first_look_s + (3 * (6.5 - (starts * Servers.fetch("puma").typical_boot_s))),
                      measured.first_look_s, 1e-9, "a start measured here is planned as measured"
    end

    def test_with_no_run_stored_it_leads_with_the_designs_expected_starts_and_says_both_ends_of_a_sequential_run
      e = estimate(TWO, expected: FakeExpected.new([1.0, 1.0, 1.0, 0.5], 3.5))
      assert_in_delta RunPace::DEFAULT_FACTOR * e.expected_s, e.about_s, 1e-9
      text = e.to_s
      assert_match(/\A2 cells in 1 block; 3 to 6 server starts each: about \dm\d\ds \(no run stored here: each block /, text)
      assert_includes text, "planned at the starts its design's simulation expects, 3.5 on average); "
      assert_match(/; \dm\d\ds if every comparison settles at the first look, \dm\d\ds if every one runs to its cap\z/, text)
    end

    def test_it_leads_with_the_pace_and_reach_of_the_latest_runs_here_and_says_both_ends_at_that_pace
      run = RunPace::Run.new(taken_s: 300.0, done_s: 200.0, first_look_s: 100.0, cap_s: 500.0, blocks: 1,
                             blocks_at_first_look: 0)
      plain = estimate(TWO)
      e = estimate(TWO, BootHistory.new, RunPace.new([run]))
      assert_in_delta 1.5 * (plain.first_look_s + (0.25 * (plain.cap_s - plain.first_look_s))), e.about_s, 1e-9
      at = ->(s) { format("%<m>dm%<s>02ds", m: (1.5 * s).round / 60, s: (1.5 * s).round % 60) }
      assert_includes e.to_s, "about #{at.call(e.about_s / 1.5)} (from the latest run here: it took 1.5x its plan, " \
                              "0 of 1 block settled at the first look); #{at.call(plain.first_look_s)} if every comparison " \
                              "settles at the first look, #{at.call(plain.cap_s)} if every one runs to its cap"
    end

    def test_what_a_run_did_is_planned_from_the_starts_each_cell_took
      e = estimate(TWO)
      assert_in_delta e.first_look_s, e.done_s({ 1 => 3, 2 => 3 }), 1e-9
      assert_in_delta e.cap_s, e.done_s({ 1 => 6, 2 => 6 }), 1e-9
      # thin's cell stopped after the first look, puma's went on alone for two starts more
      assert_in_delta e.first_look_s + (2 * start_s), e.done_s({ 1 => 5, 2 => 3 }), 1e-9
      assert_in_delta RunEstimate::RUN_S + (3 * start_s), e.done_s({ 1 => 3 }), 1e-9, "a cell that failed at once took no start"
    end

    def test_a_run_stores_its_plan_what_it_did_its_wall_time_and_its_blocks_settled_at_the_first_look
      e = estimate(TWO.merge("endpoints" => ["/hello", "/sleep/1"]))
      learned = e.learned({ 1 => 3, 2 => 3, 3 => 4, 4 => 3 }, 123.456)
      assert_equal [4, 2, 1, 123.5, RunEstimate::MODEL, { "load" => 0.5, "cpus" => 2 }],
                   learned.values_at("cells", "blocks", "blocks_at_first_look", "taken_s", "model", "machine_load")
      assert_in_delta e.done_s({ 1 => 3, 2 => 3, 3 => 4, 4 => 3 }), learned["done_s"], 0.051
      assert_equal [e.first_look_s, e.cap_s, e.about_s].map { |s| s.round(1) },
                   learned.values_at("first_look_s", "cap_s", "about_s")
      run = RunPace::Run.from_h(learned)
      assert_in_delta 123.456 / e.done_s({ 1 => 3, 2 => 3, 3 => 4, 4 => 3 }), run.factor, 1e-3, "what RunPace reads back"
    end

    # The next estimate plans at the boots the latest runs measured: the pace
    # a run stores is over its plan at its own boots, so they count once.
    def test_what_a_run_did_is_planned_at_the_boots_it_measured_and_what_it_printed_is_kept
      printed = estimate(TWO)
      own = estimate(TWO, BootHistory.new({ "puma" => 6.5 }))
      learned = printed.learned({ 1 => 4, 2 => 3 }, 100.0, boots: BootHistory.new({ "puma" => 6.5 }))
      assert_in_delta own.done_s({ 1 => 4, 2 => 3 }), learned["done_s"], 0.051
      assert_equal [own.first_look_s, own.cap_s, printed.about_s].map { |s| s.round(1) },
                   learned.values_at("first_look_s", "cap_s", "about_s")
    end

    def test_a_window_of_a_number_of_requests_is_planned_at_the_planned_pace_not_from_duration_s
      e = estimate({ "servers" => [{ "server" => "puma" }], "requests" => 1500, "max_deployments" => 12, "max_cell_s" => 60 })
      boot = deploy_s("puma")
      window_s = 1500 / RunEstimate::PLANNED_REQUESTS_PER_S
      cell = RunEstimate::CHECK_S + 1 + (window_s + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S)
      assert_in_delta RunEstimate::RUN_S + (3 * (boot + cell)), e.first_look_s, 1e-9
      # 60 s of load a cell: the 4th start's window passes it, so no 5th start (not max_deployments' 12)
      assert_equal (60 / (window_s + Runner::SHORT_WARMUP_S)).ceil, e.cap_starts
      assert_in_delta RunEstimate::RUN_S + (e.cap_starts * (boot + cell)), e.cap_s, 1e-9
      assert_match(%r{3 to #{e.cap_starts} server starts each: .* \(windows of 1500 requests planned at 100 req/s, }, e.to_s)
    end

    def test_a_cell_that_warms_up_until_steady_costs_its_shortest_warm_up_at_the_first_look_and_warmup_s_max_at_the_cap
      e = estimate({ "servers" => [{ "server" => "puma" }], "app" => "rails", "warmup_s_max" => 20, "max_deployments" => 4 })
      boot = deploy_s("puma")
      windows_s = RunEstimate::CHECK_S + 2 + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S
      assert_in_delta RunEstimate::RUN_S + (3 * (boot + SteadyWarmup.min_s + windows_s)), e.first_look_s, 1e-9
      assert_in_delta RunEstimate::RUN_S + (4 * (boot + 20 + windows_s)), e.cap_s, 1e-9
      assert_match "(1 cell warms up until steady on each start: 0m06s to 0m20s)", e.to_s
    end

    def test_a_rack_app_on_mri_keeps_its_fixed_warm_up
      e = estimate({ "servers" => [{ "server" => "puma" }] })
      refute_match "steady", e.to_s
      assert_in_delta RunEstimate::RUN_S + (3 * start_s), e.first_look_s, 1e-9
    end

    def test_starts_measured_by_earlier_runs_replace_the_typical_start_and_are_said
      typical = estimate(TWO)
      measured = estimate(TWO, BootHistory.new({ "puma" => 6.5 }))
      extra = 6.5 - Servers.fetch("puma").typical_boot_s
      assert_in_delta typical.first_look_s + (3 * extra), measured.first_look_s, 1e-9
      assert_in_delta typical.cap_s + (6 * extra), measured.cap_s, 1e-9
      assert measured.to_s.end_with?("(starts of puma as measured by the latest runs here: 6.5 s)")
      refute_match "measured", typical.to_s
    end

    def test_a_jvm_server_costs_more_to_start
      assert_operator Servers.fetch("trinidad").typical_boot_s, :>, Servers.fetch("puma").typical_boot_s
    end
  end
end
