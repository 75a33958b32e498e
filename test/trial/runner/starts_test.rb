# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # The run's starts without servers: what Starts asks of its
    # deployments, rounds and records, in order. Each start deploys a
    # level's configs side by side before its first round, measures rounds
    # until the cells have the start's windows, retires every deployment;
    # a spent budget or a resumed run changes where it stops or goes on.
    class StartsTest < Minitest::Test
      # A window of rps requests a second; ratio: a ratio window whose server was busy this share of it.
      def self.repeat(index:, deployment:, round:, rps:, busy: nil)
        result = Result.new(engine: "native", requests: rps.round, duration_s: 1.0, requests_per_s: rps, errors: {})
        Measurement::Repeat.new(index: index, deployment: deployment, round: round, result: result,
                                resources: busy ? { "cpu_s" => busy, "cpu_wait_s" => 0.0, "sampled_s" => 1.0 } : {},
                                noise: busy ? { "window" => Measurement::RATIO_WINDOW } : nil)
      end

      # Records what Starts asks; measures every cell of a round at once.
      class Fakes
        attr_reader :log, :repeats, :done

        # ratio_busy: nil, no ratio windows (ratio: turns); else the busy
        # share (DuetBusy) each ratio window records.
        # idle: the cells (by index) whose servers idle in their ratio windows whatever ratio_busy says.
        def initialize(ratio_busy: nil, idle: [])
          @log = []
          @repeats = Hash.new { |h, k| h[k] = [] }
          @done = {}
          @ratio_busy = ratio_busy
          @idle = idle
        end

        # Deployments
        def live_for(cell, epoch) = log << [:deploy, epoch, cell.index]
        def retire_except(keys) = log << [:retire_except, keys.size]
        def retire_all = log << [:retire_all]
        def trial_of(_cell) = nil

        # Repeats
        def measure(cells, round, epoch)
          log << [:round, epoch, round, cells.map(&:index)]
          cells.each do |c|
            rps = @ratio_busy ? 100.0 * (1 + (round % 3 * 0.3 * c.index)) : 100.0 # with ratio windows: never settled
            repeats[c.index] << StartsTest.repeat(index: repeats[c.index].size + 1, deployment: epoch, round: round, rps: rps)
          end
        end

        def ratio? = !@ratio_busy.nil?

        def measure_ratio(cells, round, epoch)
          log << [:ratio, epoch, round, cells.map(&:index)]
          cells.each do |c|
            repeats[c.index] << StartsTest.repeat(index: repeats[c.index].size + 1, deployment: epoch, round: round,
                                                  rps: 50.0 * (1 + (round % 3 * 0.3 * c.index)),
                                                  busy: @idle.include?(c.index) ? 0.3 : @ratio_busy)
          end
        end

        # Recorder
        def repeats_of(cell) = repeats[cell.index]
        def load_s(_cell) = 0.0
        def done?(cell) = done.key?(cell.index)
        def failed?(_cell) = false
        def finish(cell, trial:) = done[cell.index] ||= [:finished, repeats[cell.index].size, trial]
        def finish_all = repeats.each_key { |index| done[index] ||= [:finished_at_end, repeats[index].size, nil] }
      end

      # The Recorder's interface over Fakes (repeats(cell) is the fakes' repeats_of).
      class Recorder < SimpleDelegator
        def repeats(cell) = __getobj__.repeats_of(cell)
        def windows(cell) = repeats(cell).reject(&:ratio?)
      end

      Budget = Struct.new(:last_epoch) do
        def allows?(epoch) = last_epoch.nil? || epoch <= last_epoch
      end

      Resumer = Struct.new(:rounds_done) do
        def round(_block) = rounds_done
      end

      def setup
        @fakes = Fakes.new
      end

      def starts(extra, budget: Budget.new(nil), resumer: nil)
        suite = Suite.load(write_suite({ "repeats" => 4, "deployments" => 2, "servers" => [{ "server" => "puma" }] * 2 }
                                         .merge(extra)))
        plan = Plan.new(suite)
        Starts.new(plan, schedule: Schedule.new(order: suite["order"], seed: 7), policy: RepeatPolicy.new(suite.data),
                         budget: budget, recorder: Recorder.new(@fakes), deployments: @fakes, repeats: @fakes,
                         resumer: resumer).run
        plan
      end

      def rounds = @fakes.log.select { |e| e.first == :round }

      def test_each_start_deploys_its_configs_side_by_side_measures_its_rounds_then_retires_them
        starts({})
        first_start = @fakes.log.take_while { |e| e != [:retire_all] }
        assert_equal [:retire_except, 2], first_start[0], "the level's configs kept, the others retired"
        assert_equal [[:deploy, 1], [:deploy, 1]], first_start[1, 2].map { |e| e.first(2) }, "both deployed first"
        assert_equal [1, 2], first_start[3..].map { |e| e[2] }, "then the start's two rounds"
        assert_equal 2, @fakes.log.count([:retire_all]), "every deployment retired after each of the two starts"
      end

      def test_fixed_repeats_are_spread_over_the_starts_and_every_cell_is_finished_with_them
        starts({})
        assert_equal [1, 1, 2, 2], rounds.map { |e| e[1] }, "4 repeats over 2 starts: 2 rounds each"
        assert_equal [1, 2, 3, 4], rounds.map { |e| e[2] }, "round numbers go on across starts"
        assert_equal({ 1 => [:finished, 4, nil], 2 => [:finished, 4, nil] }, @fakes.done)
      end

      def test_side_by_side_configs_are_deployed_in_the_order_of_the_starts_first_round
        starts({ "order" => "random", "servers" => [{ "server" => "puma" }] * 4 })
        @fakes.log.chunk_while { |a, b| a != [:retire_all] && b != [:retire_all] }.each do |start|
          deployed = start.select { |e| e.first == :deploy }.map(&:last)
          first_round = start.find { |e| e.first == :round }
          assert_equal first_round.last, deployed, "deployed as the start's first round measures them" if first_round
        end
      end

      def test_a_spent_budget_ends_the_starts_and_every_open_cell_is_finished_with_what_it_has
        starts({}, budget: Budget.new(1))
        assert_equal [1, 1], rounds.map { |e| e[1] }, "only the first start"
        assert_equal({ 1 => [:finished_at_end, 2, nil], 2 => [:finished_at_end, 2, nil] }, @fakes.done)
      end

      def test_a_resumed_block_goes_on_from_the_rounds_its_cells_had
        starts({}, resumer: Resumer.new(3))
        assert_equal [4, 5], rounds.map { |e| e[2] }.first(2), "the stored rounds were 1 to 3"
      end

      def test_a_resumed_random_order_start_deploys_its_configs_in_the_order_its_first_round_measures_them
        starts({ "order" => "random", "servers" => [{ "server" => "puma" }] * 4 }, resumer: Resumer.new(3))
        deployed = @fakes.log.take_while { |e| e.first != :round }.select { |e| e.first == :deploy }.map(&:last)
        assert_equal rounds.first.last, deployed
      end

      # ratio: duet, sequential: every start of the first stage has its
      # windows in turns and one ratio round; after it, a block whose servers
      # were busy in those gets ratio rounds only. The fakes' ratio windows
      # never settle (their ratio swings), so it runs to its cap.
      def test_after_the_first_stage_a_busy_block_gets_ratio_windows_only
        @fakes = Fakes.new(ratio_busy: 0.99)
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 1, "max_deployments" => 5, "ratio" => "duet" })
        turns = rounds.map { |e| e[1] }
        ratios = @fakes.log.select { |e| e.first == :ratio }.map { |e| e[1] }
        assert_equal [1, 2, 3], turns.sort.first(3), "the first stage's windows in turns"
        assert_equal [], turns.select { |epoch| epoch > 3 }, "none after it"
        assert_equal [1, 2, 3, 4, 5], ratios, "a ratio round every start"
      end

      def test_a_block_whose_servers_idled_in_its_ratio_windows_goes_on_in_turns_and_measures_no_more_of_them
        @fakes = Fakes.new(ratio_busy: 0.3)
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 1, "max_deployments" => 5, "ratio" => "duet" })
        assert_equal [1], @fakes.log.select { |e| e.first == :ratio }.map { |e| e[1] }, "one look at an idle server is enough"
        assert_includes rounds.map { |e| e[1] }, 4, "the verdict reads the windows in turns, so they go on"
      end

      # Its figures only need the windows in turns, so a block its ratio
      # windows decide takes one a start in the first stage, whatever
      # `windows` says; one whose servers idled takes `windows` from the
      # start after its first ratio window showed it.
      def test_a_block_its_ratio_windows_decide_takes_one_window_in_turns_a_start_in_the_first_stage
        @fakes = Fakes.new(ratio_busy: 0.99)
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 2, "max_deployments" => 4, "ratio" => "duet" })
        assert_equal({ 1 => 1, 2 => 1, 3 => 1 }, rounds.map { |e| e[1] }.tally, "one round in turns a start, then none")
      end

      def test_a_block_whose_servers_idled_takes_its_windows_in_turns_from_the_next_start
        @fakes = Fakes.new(ratio_busy: 0.3)
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 2, "max_deployments" => 3, "ratio" => "duet" })
        assert_equal({ 1 => 1, 2 => 2, 3 => 2 }, rounds.map { |e| e[1] }.tally)
      end

      def test_in_turns_every_start_takes_its_windows
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 2, "max_deployments" => 4, "ratio" => "turns" })
        assert_equal [2], rounds.map { |e| e[1] }.tally.values.uniq
      end

      # A block of three whose third server idles: the other two go on in
      # ratio windows (their comparison may read them); its windows in turns
      # go on too (the idle one's comparisons read those).
      def test_a_config_whose_server_idled_leaves_the_ratio_windows_to_the_others_while_two_are_left
        @fakes = Fakes.new(ratio_busy: 0.99, idle: [3])
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 1, "max_deployments" => 4, "ratio" => "duet",
                 "servers" => [{ "server" => "puma" }] * 3 })
        ratio_rounds = @fakes.log.select { |e| e.first == :ratio }
        assert_equal [[1, [1, 2, 3]]], ratio_rounds.first(1).map { |e| [e[1], e[3].sort] }, "all three at the first start"
        assert_equal([[1, 2]], ratio_rounds.drop(1).map { |e| e[3].sort }.uniq, "then the two busy ones")
        assert_includes rounds.map { |e| e[1] }, 4, "windows in turns every start: a comparison with the idle one reads them"
      end

      def test_a_ratio_round_needs_two_busy_configs
        @fakes = Fakes.new(ratio_busy: 0.99, idle: [2, 3])
        starts({ "repeats" => "auto", "deployments" => 3, "windows" => 1, "max_deployments" => 4, "ratio" => "duet",
                 "servers" => [{ "server" => "puma" }] * 3 })
        assert_equal([1], @fakes.log.select { |e| e.first == :ratio }.map { |e| e[1] })
      end

      def test_sequential_order_measures_each_config_alone_with_no_side_by_side_start
        plan = starts({ "order" => "sequential" })
        assert_equal plan.cells.map { |c| [c.index] }, rounds.map(&:last).uniq, "one cell a round, config by config"
        refute(@fakes.log.each_cons(2).any? { |a, b| a.first == :deploy && b.first == :deploy }, "no two deployed at once")
      end
    end
  end
end
