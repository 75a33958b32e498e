# frozen_string_literal: true

module Rackbench
  # Many comparisons in one run: each is right 95 % of the time, so among
  # twenty comparisons of configs that do not differ, one "faster" is
  # expected by chance. Holm's step-down procedure says which of the decided
  # verdicts hold at a family-wise error rate of 5 % (the chance that any of
  # them is false), from each comparison's p-value. Created by Verdicts.
  #
  #   m = Multiplicity.new(comparisons)
  #   m.count            # comparisons with an interval
  #   m.expected_false   # false differences expected if no config differed: count * (1 - level)
  #   m.holding          # the decided comparisons that survive Holm's correction
  #   m.to_s             # one line for the report
  class Multiplicity
    attr_reader :comparisons, :level

    def initialize(comparisons, level: Stats::LEVEL)
      @comparisons = comparisons.select(&:p_value)
      @level = level
    end

    def count = comparisons.size
    def alpha = 1 - level
    def expected_false = count * alpha
    def decided = comparisons.select(&:decided?)

    # Holm: sort p-values ascending; the i-th (from 0) holds while
    # p <= alpha / (count - i); the first that fails stops the rest.
    def holding
      held = []
      comparisons.sort_by(&:p_value).each_with_index do |c, i|
        break if c.p_value > alpha / (count - i)

        held << c
      end
      held.select(&:decided?)
    end

    def to_s
      return "" if count.zero?

      head = "#{count} comparison#{"s" unless count == 1} at #{(level * 100).round} % each"
      chance = format("if no config differed, about %.1f would be called different by chance", expected_false)
      found = decided.size
      tail = if found.zero? then "no difference was found"
             else "#{holding.size} of the #{found} difference#{"s" unless found == 1} found hold under Holm's correction " \
               "(family-wise #{(alpha * 100).round} %)"
             end
      "#{head}: #{chance}; #{tail}."
    end

    def to_h
      { "comparisons" => count, "level" => level, "expected_false" => expected_false, "decided" => decided.size,
        "holding_after_holm" => holding.size, "text" => to_s }
    end
  end
end
