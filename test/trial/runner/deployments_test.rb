# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # The run's live deployments, on a real puma: a start's deployment
    # serves every window of that start, the next start gets a fresh one
    # numbered on, one that died is replaced, and retiring stops them; a
    # start that fails fails every open cell of its server config.
    class DeploymentsTest < Minitest::Test
      # The Recorder's part: the cells failed, with their reasons.
      Failed = Struct.new(:cells) do
        def fail(cell, reason, log_tail: nil, trial: nil) = cells << [cell.index, reason, log_tail, trial]
      end

      # AppCommands that do nothing, or whose setup fails.
      Commands = Struct.new(:error) do
        def setup!(*) = error && raise(error)
        def reset!(*) = nil
      end

      def setup
        @supervisor = Supervisor.new
        @suite = Suite.load(write_suite("endpoints" => ["/hello", "/sleep/1"],
                                        "servers" => [{ "server" => "puma", "threads" => 1 }]))
        @plan = Plan.new(@suite)
        @failed = Failed.new([])
      end

      def teardown
        @deployments&.retire_all
        @supervisor.stop_all
        assert_nothing_left
        super
      end

      def running?(pids) = pids.any? { |pid| ProcessTable.live?(pid) }

      def deployments(commands = Commands.new(nil), numbers: {})
        @deployments = Deployments.new(@suite, plan: @plan, recorder: @failed, app_commands: commands, supervisor: @supervisor,
                                               pinning: Pinning.choose(enabled: false), run_dir: tmpdir, window: nil,
                                               env: Apps.default_env(tmpdir), fleet: nil, log_root: tmpdir, numbers: numbers)
      end

      def test_a_starts_deployment_serves_all_its_cells_and_the_next_start_gets_a_fresh_one_numbered_on
        live = deployments
        hello, sleep = @plan.cells
        first = live.live_for(hello, 1)
        assert_same first, live.live_for(sleep, 1), "one deployment per server config and start"
        assert_equal 1, first.number
        first_pids = first.trial.pids
        second = live.live_for(hello, 2)
        refute running?(first_pids), "the last start's deployment is stopped"
        assert_equal [2, true], [second.number, second.trial.alive?]
        assert_equal "d2", File.basename(second.trial.dir)
      end

      def test_a_resumed_runs_deployments_go_on_from_the_last_stored_number
        live = deployments(numbers: { Deployments.key(@plan.cells.first) => 4 })
        assert_equal 5, live.live_for(@plan.cells.first, 1).number
      end

      def test_a_deployment_that_died_is_replaced_within_the_start
        live = deployments
        first = live.live_for(@plan.cells.first, 1)
        Supervisor.signal_pids(first.trial.pids, "KILL")
        wait_until(timeout_s: 10, message: "the killed server gone") { !first.trial.alive? }
        replacement = live.live_for(@plan.cells.first, 1)
        refute_same first, replacement
        assert replacement.trial.alive?
      end

      def test_a_deployment_still_needed_is_kept_and_retiring_it_stops_its_processes
        live = deployments
        kept = live.live_for(@plan.cells.first, 1)
        pids = kept.trial.pids
        live.retire_except([kept.key])
        assert running?(pids), "still needed"
        live.retire_all
        refute running?(pids)
        assert_nil live.trial_of(@plan.cells.first)
      end

      def test_retiring_every_config_at_once_stops_each_ones_processes
        @suite = Suite.load(write_suite("endpoints" => ["/hello"], "servers" => [{ "server" => "puma", "threads" => 1 },
                                                                                 { "server" => "puma", "threads" => 2 }]))
        @plan = Plan.new(@suite)
        live = deployments
        pids = @plan.cells.map { |cell| live.live_for(cell, 1).trial.pids }
        assert(pids.all? { |p| running?(p) })
        live.retire_all
        pids.each { |p| refute running?(p), "a config's deployment left running: #{p}" }
        assert(@plan.cells.all? { |cell| live.trial_of(cell).nil? })
      end

      def test_a_start_that_fails_fails_every_open_cell_of_its_server_config
        live = deployments(Commands.new(ServiceError.new("setup: bin/rails db:setup failed", log_tail: "no database")))
        assert_nil live.live_for(@plan.cells.first, 1)
        assert_equal [[1, "setup: bin/rails db:setup failed", "no database", nil],
                      [2, "setup: bin/rails db:setup failed", "no database", nil]], @failed.cells
      end
    end
  end
end
