# frozen_string_literal: true

module Rackbench
  # The order in which the Runner measures repeats: pure, decided by a
  # recorded seed, so a run can be repeated (and resumed) in the same order.
  #
  # A *block* is the set of cells that get compared: the same endpoint at the
  # same concurrency, one cell per server config. A *round* measures each cell
  # of a block once. Blocks are taken level by level (concurrency), so every
  # server config needed at a level can stay deployed side by side.
  #
  #   interleaved (default): each round alternates the block's configs in a
  #     rotated order from a seeded permutation (A B C, C A B, B C A, ...);
  #   random: each round in a freshly shuffled order;
  #   sequential: one config after another, all of a cell's repeats back to
  #     back (the order of rackbench 0.1; rounds are not paired).
  #
  # Repeats are spread over `deployments` fresh server starts: epoch e of
  # `deployments` takes its share of the minimum repeats (#rounds_in_epoch);
  # extra repeats for precision are added in the last epoch.
  class Schedule
    ORDERS = %w[interleaved random sequential].freeze

    Block = Struct.new(:concurrency, :endpoint, :cells, keyword_init: true)

    attr_reader :order, :seed

    def initialize(order:, seed:)
      raise ConfigError, "order must be one of #{ORDERS.join(", ")}, got #{order.inspect}" unless ORDERS.include?(order)

      @order = order
      @seed = Integer(seed)
    end

    def self.new_seed = Random.new_seed % 1_000_000

    def sequential? = order == "sequential"

    # [[concurrency, [Block]]] in the plan's order of first appearance; in a
    # rate sweep each offered rate at a concurrency is a level of its own.
    def levels(cells)
      cells.group_by { |c| c.respond_to?(:level) ? c.level : c.concurrency }.map do |_level, at_level|
        concurrency = at_level.first.concurrency
        blocks = at_level.group_by { |c| c.endpoint["name"] }.map do |name, list|
          Block.new(concurrency: concurrency, endpoint: name, cells: list)
        end
        [concurrency, blocks]
      end
    end

    # The cells of a block in the order of one round (round numbers from 1).
    # Interleaved rotates a seeded order by `turn` (default: round - 1); the
    # Runner passes Schedule.turn so the config measured first also rotates
    # from one server start to the next.
    def round_order(cells, round, turn: round - 1)
      return cells if sequential? || cells.size < 2

      rng = Random.new(seed_for(cells, round))
      if order == "random"
        cells.shuffle(random: rng)
      else
        base = cells.shuffle(random: Random.new(seed_for(cells, 0)))
        base.rotate(-turn % base.size)
      end
    end

    # The rotation of a round that is the k-th (from 0) of server start
    # `epoch`: k + epoch - 1. Rotating by the round number alone gives every
    # start the same first config when a start holds as many rounds as there
    # are configs (2 windows, A/B: A B, B A at every start), so A would
    # always be started, warmed and measured first on each start.
    def self.turn(epoch:, round_in_epoch:) = round_in_epoch + epoch - 1

    # The seed of a cell's nth window's random arrivals (and random ids):
    # drawn afresh for each window, so an interval over starts sees the
    # arrivals' own randomness (one seed for every window offered each start
    # the same schedule: a rate sweep's achieved rate sat 15 % under the
    # offered with an interval that excluded it); the same for every config
    # at its nth window, so configs are compared on like schedules. From the
    # run's seed: a resumed run draws the same. At least 1.
    def window_seed(window) = (mix(window) % ((2**31) - 1)) + 1

    # How many of `minimum` repeats epoch e (1-based) of `epochs` takes.
    def self.rounds_in_epoch(minimum, epochs, epoch)
      (minimum / epochs) + (epoch <= minimum % epochs ? 1 : 0)
    end

    private

    def seed_for(cells, round) = (mix(round) + cells.map(&:index).join(",").sum) % (2**31)

    # The run's seed and a number (a round, a window) in one.
    def mix(number) = (seed * 1_000_003) + (number * 7919)
  end
end
