# frozen_string_literal: true

require "test_helper"

module Rackbench
  # `rackbench run` says what the plan costs before any server starts, and
  # --budget ends a run whose question stays open when its time is spent;
  # the starts it measured are what the next run's estimate plans with.
  class RunBudgetTest < Minitest::Test
    # Identical configs with a margin no run can meet: the comparison never
    # settles, so only the cap (8 starts) or the budget ends it.
    def test_a_budget_ends_an_open_comparison_before_its_cap_and_the_estimate_comes_first
      suite = write_suite("engine" => "native", "endpoints" => ["/hello"], "duration_s" => 0.5, "warmup_s" => 0,
                          "repeats" => "auto", "windows" => 1, "deployments" => 2, "max_deployments" => 8,
                          "margin" => 0.0001, "servers" => [{ "server" => "puma", "threads" => 2, "label" => "A" },
                                                            { "server" => "puma", "threads" => 2, "label" => "B" }])
      results = File.join(tmpdir, "results")
      status, out, err = run_cli("run", suite, "--results", results, "--no-doctor", "--budget", "6s")
      assert_includes [0, 3], status, "#{out}\n#{err}"
      planned = out.index("rackbench: planned 2 cells in 1 block; 2 to 8 server starts each")
      assert planned, out
      assert_operator planned, :<, out.index("rackbench: run "), "the estimate before the run"
      store = Store.new(results)
      spent = store.run["settings"]["budget_spent_after_starts"]
      cells = store.measurements(store.run["id"])
      comparison = Comparison.new(*cells)
      skip "the identical configs came out apart by chance: #{comparison}" if comparison.decided?
      assert spent, "the budget ended the run: #{store.run["settings"].slice("budget_s")}"
      cells.each { |m| assert_equal (1..spent).to_a, m.repeats.map(&:deployment).uniq, m.label }
      assert_operator spent, :<, 8
      boots = cells.flat_map { |m| m.repeats.map { |r| r.resources["boot_s"] } }
      assert boots.all? { |boot_s| boot_s.to_f.positive? }, "a start's first window keeps its boot: #{boots}"
      assert_in_delta Stats.median(boots), BootHistory.of(store).boot_s("puma"), 1e-9, "the next estimate's puma start"
      assert_nothing_left
    ensure
      store&.close
    end
  end
end
