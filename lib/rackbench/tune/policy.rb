# frozen_string_literal: true

module Rackbench
  module Tune
    # What a budgeted tune does next, asked after every step (Tuner#search):
    # search a config once more, screen an untried one, or stop (nil).
    #
    # Exploring comes first. Until some config has a knee, the design's next
    # config is searched. Then each untried config of the design (Space#coarse,
    # then the neighbours of the leader and of the runner-up) is screened:
    # its closed-loop capacity measured on a fresh deployment, a few seconds,
    # and if that is below Tuner::SCREEN of the leader's knee it is not
    # searched (an open-loop rate under a latency bound does not pass the
    # capacity). Those screened in are searched, the highest capacity first.
    # Each exploring step is taken while the budget still holds it and one
    # more search each of the leader and the runner-up (the confirmations the
    # ranking may still need). Then the leader and the runner-up are searched
    # again, the one with fewer searches first (the leader on a tie), until
    # the ranking is settled (Separation#separated?) or each has had
    # `searches`; what is left explores again, and a leader alone gets a
    # second search. A step is taken only when it fits the budget by the time
    # such steps have taken (a config's own searches, else every search so
    # far; every screen so far, else SCREEN_S); the first search always.
    #
    #   policy = Policy.new(order: space, budget_s: 240, searches: 3, slo: slo, memory_bytes: nil)
    #   policy.next_step(outcomes, spent_s: 61.0)  # => Policy::Step (:search or :screen, its config), or nil
    class Policy
      Step = Struct.new(:action, :config, keyword_init: true)

      # What a screen is taken to cost before one was timed: a deployment and two seconds of load.
      SCREEN_S = 10.0

      # order: Space (#coarse, #neighbours); outcomes: Tuner::Outcome-like
      # (config, rate, knee, searches, search_s, screen_s, capacity_rps, screened?, waiting?).
      def initialize(order:, budget_s:, searches:, slo:, memory_bytes: nil)
        @order = order
        @budget_s = budget_s
        @searches = searches
        @slo = slo
        @memory_bytes = memory_bytes
      end

      def next_step(outcomes, spent_s:)
        answer = Answer.new(Struct.new(:outcomes).new(outcomes), slo: @slo, memory_bytes: @memory_bytes)
        unsettled = unsettled(answer, outcomes)
        left_s = @budget_s - spent_s - unsettled.sum { |o| search_s(outcomes, o.config) }
        explore(outcomes, answer, left_s) || confirm(outcomes, unsettled + second(answer), spent_s)
      end

      private

      # A first search or a screen that fits in left_s; nil: none.
      def explore(outcomes, answer, left_s)
        fresh = candidate(outcomes, answer)
        unless answer.best
          return fresh && fits?(outcomes, search_s(outcomes, fresh), left_s) ? step(:search, fresh) : nil
        end
        return step(:screen, fresh) if fresh && screen_s(outcomes) <= left_s

        waiting = outcomes.select(&:waiting?).max_by(&:capacity_rps)
        waiting && search_s(outcomes, waiting.config) <= left_s ? step(:search, waiting.config) : nil
      end

      # One more search of the first of `targets` that fits; nil: none.
      def confirm(outcomes, targets, spent_s)
        target = targets.first
        target && search_s(outcomes, target.config) <= @budget_s - spent_s ? step(:search, target.config) : nil
      end

      def step(action, config) = Step.new(action: action, config: config)

      # The leader and runner-up that may still take a confirming search,
      # fewest searches first (the leader on a tie): none once they are
      # separated, or with no runner-up; those below `searches` otherwise.
      def unsettled(answer, outcomes)
        leader = answer.best
        runner_up = answer.runner_up
        return [] unless leader && runner_up
        return [] if Separation.new(leader, runner_up, outcomes).separated?

        [leader, runner_up].select { |o| o.searches.to_i < @searches }.sort_by.with_index { |o, i| [o.searches.to_i, i] }
      end

      # A leader alone, searched once: its second search, with what is left.
      def second(answer)
        leader = answer.best
        leader && !answer.runner_up && leader.searches.to_i < KneeSample::MIN_CONFIRMED ? [leader] : []
      end

      # The next untried config: the coarse design first, then the
      # neighbours of the leader, then the runner-up's; nil: none left.
      def candidate(outcomes, answer)
        tried = outcomes.map(&:config)
        around = [answer.best, answer.runner_up].compact.flat_map { |o| @order.neighbours(o.config) }
        (@order.coarse + around).find { |c| !tried.include?(c) }
      end

      # The first search always fits; after it, what its cost says.
      def fits?(outcomes, cost_s, left_s) = outcomes.none? { |o| o.searches.to_i.positive? } || cost_s <= left_s

      # What a search of config is expected to take: its own searches' mean, else every search's.
      def search_s(outcomes, config)
        own = outcomes.find { |o| o.config == config && o.searches.to_i.positive? }
        searched = own ? [own] : outcomes.select { |o| o.searches.to_i.positive? }
        searched.sum { |o| o.search_s.to_f } / [searched.sum { |o| o.searches.to_i }, 1].max
      end

      def screen_s(outcomes)
        times = outcomes.filter_map(&:screen_s)
        times.empty? ? SCREEN_S : times.sum / times.size
      end
    end
  end
end
