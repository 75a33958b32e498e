# frozen_string_literal: true

require "test_helper"

module Rackbench
  class ScheduleTest < Minitest::Test
    Cell = Struct.new(:index, :concurrency, :endpoint, keyword_init: true)

    def cells = (1..3).map { |i| Cell.new(index: i, concurrency: 8, endpoint: { "name" => "/hello" }) }

    def test_interleaved_rounds_rotate_one_seeded_permutation
      schedule = Schedule.new(order: "interleaved", seed: 7)
      rounds = (1..3).map { |r| schedule.round_order(cells, r).map(&:index) }
      assert_equal 3, rounds.uniq.size
      assert_equal rounds[0].rotate(-1), rounds[1]
      rounds.transpose.each { |position| assert_equal [1, 2, 3], position.sort, "each config once in each position" }
    end

    def test_the_config_measured_first_after_a_start_rotates_from_start_to_start
      schedule = Schedule.new(order: "interleaved", seed: 7)
      pair = cells.first(2)
      [1, 2].each do |windows|
        firsts = (1..4).map do |epoch|
          round = ((epoch - 1) * windows) + 1
          schedule.round_order(pair, round, turn: Schedule.turn(epoch: epoch, round_in_epoch: 0)).first.index
        end
        assert_equal [2, 2], firsts.tally.values, "with #{windows} window(s) a start, each config leads two of four starts"
      end
    end

    def test_within_a_start_the_rounds_still_alternate
      schedule = Schedule.new(order: "interleaved", seed: 7)
      pair = cells.first(2)
      orders = (0..1).map { |k| schedule.round_order(pair, 3 + k, turn: Schedule.turn(epoch: 2, round_in_epoch: k)) }
      assert_equal orders[0].reverse, orders[1]
    end

    def test_the_same_seed_gives_the_same_order
      a = Schedule.new(order: "random", seed: 11)
      b = Schedule.new(order: "random", seed: 11)
      assert_equal((1..6).map { |r| a.round_order(cells, r).map(&:index) }, (1..6).map do |r|
        b.round_order(cells, r).map(&:index)
      end)
    end

    def test_sequential_keeps_the_plan_order
      assert_equal [1, 2, 3], Schedule.new(order: "sequential", seed: 1).round_order(cells, 2).map(&:index)
    end

    def test_blocks_group_the_cells_compared_at_each_level
      list = cells + [Cell.new(index: 4, concurrency: 32, endpoint: { "name" => "/hello" }),
                      Cell.new(index: 5, concurrency: 8, endpoint: { "name" => "/sleep" })]
      levels = Schedule.new(order: "interleaved", seed: 1).levels(list)
      assert_equal [8, 32], levels.map(&:first)
      assert_equal([[1, 2, 3], [5]], levels[0][1].map { |b| b.cells.map(&:index) })
    end

    def test_the_minimum_repeats_are_spread_over_the_deployments
      assert_equal([2, 1], [1, 2].map { |e| Schedule.rounds_in_epoch(3, 2, e) })
      assert_equal([2, 2], [1, 2].map { |e| Schedule.rounds_in_epoch(4, 2, e) })
      assert_equal([1], [1].map { |e| Schedule.rounds_in_epoch(1, 1, e) })
    end

    def test_an_unknown_order_is_a_config_error
      assert_raises(ConfigError) { Schedule.new(order: "zigzag", seed: 1) }
    end

    def test_each_window_has_a_seed_of_its_own_that_the_run_seed_decides
      seeds = (1..50).map { |window| Schedule.new(order: "interleaved", seed: 7).window_seed(window) }
      assert_equal 50, seeds.uniq.size
      assert(seeds.all? { |s| s.between?(1, (2**31) - 1) })
      assert_equal(seeds, (1..50).map { |window| Schedule.new(order: "sequential", seed: 7).window_seed(window) })
      refute_equal(seeds, (1..50).map { |window| Schedule.new(order: "interleaved", seed: 8).window_seed(window) })
    end
  end
end
