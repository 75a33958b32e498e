# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What a run will cost, from its plan alone: every start deploys each
  # config of a level, then checks, warms up and measures each cell.
  class RunEstimateTest < Minitest::Test
    def estimate(extra, boots = BootHistory.new)
      suite = Suite.load(write_suite({ "repeats" => "auto", "duration_s" => 2, "warmup_s" => 1, "windows" => 1,
                                       "deployments" => 3, "max_deployments" => 6, "max_cell_s" => 100,
                                       "stopping" => "sequential" }.merge(extra)))
      RunEstimate.new(Plan.new(suite), RepeatPolicy.new(suite.data), Schedule.new(order: "interleaved", seed: 1),
                      boots: boots)
    end

    def test_a_start_costs_the_boots_of_its_configs_and_each_cells_checks_warm_up_and_windows
      e = estimate("servers" => [{ "server" => "puma" }, { "server" => "thin" }])
      boots = Servers.fetch("puma").typical_boot_s + Servers.fetch("thin").typical_boot_s
      cell = RunEstimate::CHECK_S + 1 + (2 + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S)
      assert_in_delta 3 * (boots + (2 * cell)), e.first_look_s, 1e-9
      assert_in_delta 6 * (boots + (2 * cell)), e.cap_s, 1e-9
    end

    def test_it_says_both_ends_of_a_sequential_run
      text = estimate("servers" => [{ "server" => "puma" }, { "server" => "thin" }]).to_s
      assert_match(/\A2 cells in 1 block; 3 to 6 server starts each: about \dm\d\ds if every comparison settles /, text)
      assert_match(/at the first look, \dm\d\ds if every one runs to its cap\z/, text)
    end

    def test_a_window_of_a_number_of_requests_is_planned_at_the_planned_pace_not_from_duration_s
      e = estimate("servers" => [{ "server" => "puma" }], "requests" => 1500, "max_deployments" => 12, "max_cell_s" => 60)
      boot = Servers.fetch("puma").typical_boot_s
      window_s = 1500 / RunEstimate::PLANNED_REQUESTS_PER_S
      cell = RunEstimate::CHECK_S + 1 + (window_s + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S)
      assert_in_delta 3 * (boot + cell), e.first_look_s, 1e-9
      # 60 s of load a cell: the 4th start's window passes it, so no 5th start (not max_deployments' 12)
      assert_equal (60 / (window_s + Runner::SHORT_WARMUP_S)).ceil, e.cap_starts
      assert_in_delta e.cap_starts * (boot + cell), e.cap_s, 1e-9
      assert_match(%r{3 to #{e.cap_starts} server starts each: .* \(windows of 1500 requests planned at 100 req/s, }, e.to_s)
    end

    def test_a_cell_that_warms_up_until_steady_costs_its_shortest_warm_up_at_the_first_look_and_warmup_s_max_at_the_cap
      e = estimate("servers" => [{ "server" => "puma" }], "app" => "rails", "warmup_s_max" => 20, "max_deployments" => 4)
      boot = Servers.fetch("puma").typical_boot_s
      windows_s = RunEstimate::CHECK_S + 2 + Runner::SHORT_WARMUP_S + RunEstimate::WINDOW_OVERHEAD_S
      assert_in_delta 3 * (boot + SteadyWarmup.min_s + windows_s), e.first_look_s, 1e-9
      assert_in_delta 4 * (boot + 20 + windows_s), e.cap_s, 1e-9
      assert_match "(1 cell warms up until steady on each start: 0m06s to 0m20s)", e.to_s
    end

    def test_a_rack_app_on_mri_keeps_its_fixed_warm_up
      e = estimate("servers" => [{ "server" => "puma" }])
      refute_match "steady", e.to_s
      assert_in_delta 3 * (Servers.fetch("puma").typical_boot_s + RunEstimate::CHECK_S + 1 + 2 + Runner::SHORT_WARMUP_S +
                           RunEstimate::WINDOW_OVERHEAD_S), e.first_look_s, 1e-9
    end

    def test_starts_measured_by_earlier_runs_replace_the_typical_start_and_are_said
      servers = { "servers" => [{ "server" => "puma" }, { "server" => "thin" }] }
      typical = estimate(servers)
      measured = estimate(servers, BootHistory.new({ "puma" => 6.5 }))
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
