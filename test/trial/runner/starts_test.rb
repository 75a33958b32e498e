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
      Repeat = Struct.new(:index, :deployment, :round, :good_requests_per_s, keyword_init: true)

      # Records what Starts asks; measures every cell of a round at once.
      class Fakes
        attr_reader :log, :repeats, :done

        def initialize
          @log = []
          @repeats = Hash.new { |h, k| h[k] = [] }
          @done = {}
        end

        # Deployments
        def live_for(cell, epoch) = log << [:deploy, epoch, cell.index]
        def retire_except(keys) = log << [:retire_except, keys.size]
        def retire_all = log << [:retire_all]
        def trial_of(_cell) = nil

        # Repeats
        def measure(cells, round, epoch)
          log << [:round, epoch, round, cells.map(&:index)]
          cells.each { |c| repeats[c.index] << Repeat.new(deployment: epoch, round: round, good_requests_per_s: 100.0) }
        end

        # Recorder
        def repeats_of(cell) = repeats[cell.index]
        def load_s(_cell) = 0.0
        def done?(cell) = done.key?(cell.index)
        def finish(cell, trial:) = done[cell.index] ||= [:finished, repeats[cell.index].size, trial]
        def finish_all = repeats.each_key { |index| done[index] ||= [:finished_at_end, repeats[index].size, nil] }
      end

      # The Recorder's interface over Fakes (repeats(cell) is the fakes' repeats_of).
      class Recorder < SimpleDelegator
        def repeats(cell) = __getobj__.repeats_of(cell)
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

      def test_sequential_order_measures_each_config_alone_with_no_side_by_side_start
        plan = starts({ "order" => "sequential" })
        assert_equal plan.cells.map { |c| [c.index] }, rounds.map(&:last).uniq, "one cell a round, config by config"
        refute(@fakes.log.each_cons(2).any? { |a, b| a.first == :deploy && b.first == :deploy }, "no two deployed at once")
      end
    end
  end
end
