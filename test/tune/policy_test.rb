# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    # What a budgeted tune does next, against fake configs of known knee and
    # capacity: each search finds the knee times a fixed spread and takes
    # SEARCH_S, each screen reads the capacity and takes SCREEN_S. No server;
    # Policy sees only the outcomes so far.
    class PolicyTest < Minitest::Test
      SLO = Slo.parse("p99<=200ms")
      SEARCH_S = 60.0
      SCREEN_S = 8.0
      # What successive searches of one config find, as shares of its knee (about 3 % apart).
      SPREAD = [1.0, 0.97, 1.03, 0.99].freeze

      # A KneeSample's face: its searches' centres (the reported rate is their
      # lower median), the capacity it was screened by and the screen's bar.
      Sample = Struct.new(:centres, :capacity_rps, :below) do
        def rate = centres.empty? ? nil : centres.sort[(centres.size - 1) / 2]
        def searches = centres.size
        def interval = nil
        def unconfirmed? = false
        def screened? = centres.empty? && below && capacity_rps < below
      end

      def label(config) = "x#{config["workers"]}:#{config["threads"]}"
      def threads(config) = [config["workers"], 1].max * config["threads"]

      # /sleep/50 on puma: threads bound it (20 req/s a thread, a little less under a p99 bound), one CPU at 1,250.
      def sleep_knee(config) = [threads(config) * 19.0, 1250.0].min
      def sleep_capacity(config) = [threads(config) * 20.0, 1300.0].min

      def actions(steps) = steps.map { |action, label| [action.to_s, label] }

      def answer(outcomes) = Answer.new(Struct.new(:outcomes).new(outcomes), slo: SLO, memory_bytes: nil)

      def searched(config, centres, before = nil)
        Tuner::Outcome.new(config: config, label: label(config), pss_bytes: 50 << 20, search_s: SEARCH_S * centres.size,
                           knee: Sample.new(centres, before&.capacity_rps), screen_s: before&.screen_s)
      end

      def screened(config, capacity, below)
        Tuner::Outcome.new(config: config, label: label(config), knee: Sample.new([], capacity, below), screen_s: SCREEN_S)
      end

      # Runs the policy to its end: [the steps taken as [action, label], the outcomes].
      def simulate(space, budget_s:, knee: method(:sleep_knee), capacity: method(:sleep_capacity))
        policy = Policy.new(order: space, budget_s: budget_s, searches: 3, slo: SLO)
        outcomes = []
        steps = []
        spent_s = 0.0
        while (step = policy.next_step(outcomes, spent_s: spent_s))
          steps << [step.action, label(step.config)]
          index = outcomes.index { |o| o.config == step.config } || outcomes.size
          if step.action == :screen
            outcomes[index] = screened(step.config, capacity.call(step.config), answer(outcomes).best.rate * Tuner::SCREEN)
            spent_s += SCREEN_S
          else
            centres = outcomes[index]&.knee&.centres.to_a
            outcomes[index] = searched(step.config, centres + [knee.call(step.config) * SPREAD[centres.size]], outcomes[index])
            spent_s += SEARCH_S
          end
        end
        [steps, outcomes, spent_s]
      end

      # The issue's case: /sleep/50 at p99, a search a quarter of the budget.
      # The largest corner is searched; every other config of the design and
      # the leader's neighbours are screened out by their capacity (x4:8 and
      # x2:16: 640 req/s, under 0.8 of 1,250); the leader alone gets its
      # second search with the time left.
      def test_the_design_is_explored_before_the_leader_is_searched_again
        steps, outcomes, spent_s = simulate(Space.new("puma"), budget_s: 240)
        assert_equal [%w[search x4:16], %w[screen x0:16], %w[screen x4:1], %w[screen x2:4], %w[screen x0:1],
                      %w[screen x2:16], %w[screen x4:8], %w[search x4:16]], actions(steps)
        assert_equal "x4:16", answer(outcomes).best.label
        assert_operator spent_s, :<=, 240
      end

      # The first config's search alone fills the budget: it is all there is.
      def test_the_first_config_is_searched_whatever_the_budget
        steps, = simulate(Space.new("puma"), budget_s: 1)
        assert_equal [[:search, "x4:16"]], steps
      end

      # A CPU-bound endpoint: every config's capacity is alike, so every
      # screen lets its config in; they are searched, the highest capacity
      # first, while the budget holds one more search each of the leader and
      # runner-up, then those two are searched again.
      def test_configs_screened_in_are_searched_highest_capacity_first_then_the_leaders_confirmed
        knee = ->(c) { 200.0 + (c["threads"] * 2) - c["workers"] }
        capacity = ->(c) { 240.0 - c["workers"] }
        steps, outcomes = simulate(Space.new("puma", values: { "workers" => [0, 4], "threads" => [1, 16] }),
                                   budget_s: 6 * SEARCH_S, knee: knee, capacity: capacity)
        taken = actions(steps)
        assert_equal [%w[search x4:16], %w[screen x0:16], %w[screen x4:1], %w[screen x0:1], %w[search x0:16],
                      %w[search x0:1]], taken.first(6)
        first_again = taken.each_with_index.find { |(a, l), i| a == "search" && taken[0...i].include?([a, l]) }&.last
        assert_operator first_again, :>, taken.rindex { |a, _| a == "screen" }, "no config searched twice before all are tried"
        assert_equal "x0:16", answer(outcomes).best.label
      end

      # Leader 1,250 and runner-up 608 req/s, each searched twice, about 3 %
      # apart: the ranking is settled, so neither is searched again.
      def test_confirming_stops_once_the_leader_and_runner_up_are_separated
        space = Space.new("puma", values: { "workers" => [2, 4], "threads" => [8, 16] })
        outcomes = space.grid.map { |c| searched(c, SPREAD.first(2).map { |s| sleep_knee(c) * s }) }
        ranked = answer(outcomes)
        assert_equal "x4:16", ranked.best.label
        assert Separation.new(ranked.best, ranked.runner_up, outcomes).separated?, "1,250 against 608, 3 % apart, is settled"
        assert_nil Policy.new(order: space, budget_s: 10_000, searches: 3, slo: SLO).next_step(outcomes, spent_s: 480)
      end

      # Two configs 4 % apart are not told apart: the one with fewer searches
      # is searched again (the leader on a tie), up to 3 each, then nothing.
      def test_leaders_too_close_to_separate_are_searched_fewest_first_up_to_the_cap
        space = Space.new("puma", values: { "workers" => [4], "threads" => [8, 16] })
        steps, outcomes = simulate(space, budget_s: 10_000, knee: ->(c) { c["threads"] == 16 ? 1250.0 : 1200.0 },
                                          capacity: ->(_) { 1300.0 })
        assert_equal [%w[search x4:16], %w[screen x4:8], %w[search x4:8], %w[search x4:16], %w[search x4:8],
                      %w[search x4:16], %w[search x4:8]], actions(steps)
        assert_equal [3, 3], outcomes.map(&:searches)
      end

      # With room for a screen but not also for one more search each of the
      # leader and the runner-up, the leaders are searched again first.
      def test_exploring_keeps_room_for_one_more_search_of_the_leader_and_the_runner_up
        space = Space.new("puma")
        outcomes = space.coarse.first(2).map { |c| searched(c, [sleep_knee(c)]) }
        policy = Policy.new(order: space, budget_s: 200, searches: 3, slo: SLO)
        room = 200 - (2 * SEARCH_S) - Policy::SCREEN_S
        assert_equal :screen, policy.next_step(outcomes, spent_s: room).action
        step = policy.next_step(outcomes, spent_s: room + 1)
        assert_equal [:search, "x4:16"], [step.action, label(step.config)]
      end
    end
  end
end
