# frozen_string_literal: true

require "test_helper"

module Rackbench
  # `rackbench run` leads its estimate with a figure learned from the
  # results folder: a first run, with nothing stored, says it plans the
  # starts its design's simulation expects, and stores its wall time beside what its plan allowed for the
  # starts it made; the next run's figure is the first's pace applied to
  # its own plan.
  class RunEstimateIntegrationTest < Minitest::Test
    def test_the_second_run_into_a_folder_plans_at_the_pace_the_first_one_measured
      suite = write_suite("engine" => "native", "endpoints" => ["/hello"], "duration_s" => 0.3, "warmup_s" => 0,
                          "repeats" => "auto", "windows" => 1, "deployments" => 2, "max_deployments" => 3,
                          "servers" => [{ "server" => "puma", "threads" => 2 }])
      results = File.join(tmpdir, "results")
      first, second = run_twice(suite, results)
      head = "rackbench: planned 1 cell in 1 block; 2 to 3 server starts each: about"
      assert_match(/\A#{head} \dm\d\ds \(no run stored here: each block planned at the starts its design/, first)
      store = Store.new(results)
      older, newer = store.runs.reverse
      learned = older.dig("settings", "estimate")
      assert_taken_is_the_runs_wall_time(older, learned["taken_s"])
      first_boots = BootHistory.measured(store.boot_seconds([older["id"]]))
      assert_in_delta planned_for(older, first_boots).done_s(starts_of(store, older)), learned["done_s"], 0.051,
                      "what its plan allowed, at the boots it measured, for the starts its cells took"
      stored = newer.dig("settings", "estimate")
      assert_second_planned_at_the_firsts_pace(learned, planned_for(newer, first_boots, stored["machine_load"]), stored)
      factor = format("%.1f", learned["taken_s"] / learned["done_s"])
      assert_includes second, "(from the latest run here: it took #{factor}x its plan, "
      assert_nothing_left
    ensure
      store&.close
    end

    private

    # Both runs' output: each says its estimate before it runs.
    def run_twice(suite, results)
      Array.new(2) do
        status, out, err = run_cli("run", suite, "--results", results, "--no-doctor")
        assert_includes [0, 3], status, "#{out}\n#{err}"
        planned = out[/^rackbench: planned .*$/]
        assert_operator out.index(planned), :<, out.index("rackbench: run "), "the estimate before the run"
        planned
      end
    end

    def assert_taken_is_the_runs_wall_time(run, taken_s)
      stored_s = Time.iso8601(run["finished_at"]) - Time.iso8601(run["started_at"])
      assert_operator taken_s, :>=, stored_s - 0.1, "from before the run was stored to after it finished"
      assert_operator taken_s, :<=, stored_s + 5, "no more than the run"
    end

    # The run's plan at these boots, and at the machine's load as the run stored it (its own otherwise).
    def planned_for(run, boots, load = run.dig("settings", "estimate", "machine_load"))
      suite = Suite.load(run["suite_path"])
      RunEstimate.new(Plan.new(suite), RepeatPolicy.new(run["settings"]), Schedule.new(order: "interleaved", seed: 1),
                      boots: boots, load: MachineLoad.from_h(load))
    end

    def starts_of(store, run) = store.measurements(run["id"]).to_h { |m| [m.position, m.repeats.map(&:deployment).max.to_i] }

    # The second's plan (planned: at the boots the first measured) at the first's pace and reach.
    def assert_second_planned_at_the_firsts_pace(first, planned, second)
      factor = first["taken_s"] / first["done_s"]
      reach = ((first["done_s"] - first["first_look_s"]) / (first["cap_s"] - first["first_look_s"])).clamp(0.0, 1.0)
      low = planned.first_look_s
      assert_in_delta factor * (low + (reach * (planned.cap_s - low))), second["about_s"], 0.2
    end
  end
end
