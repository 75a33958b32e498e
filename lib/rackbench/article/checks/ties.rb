# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a and b perform alike: the comparison's equivalence test with its
      # margin (the claim's margin:, else the run's, else Comparison::MARGIN):
      # "equivalent" when the whole interval lies within ±margin of 1; "no"
      # when it lies wholly outside that band; else "not settled".
      #
      #   - says: Five Thin sockets are not significantly faster than four
      #     kind: ties
      #     margin: 0.05
      class Ties < Check
        def answer
          a, b = claim.pair
          return unmeasured(a, b) unless a&.ok? && b&.ok?

          comparison = compare(a, b, margin: margin)
          facts = { a: figure(a), b: figure(b), margin: margin }
          return reply(:not_settled, :zero_figure, **facts) unless comparison.measured?

          decide(comparison, facts)
        end

        private

        def margin = claim.spec["margin"] || claim.run_margin || Comparison::MARGIN

        def decide(comparison, facts)
          ci = comparison.ci
          return reply(:equivalent, :within_margin, interval: ci, **facts) if comparison.within_margin?
          return unsettled(comparison, **facts) if %i[errors no_interval].include?(comparison.verdict)
          return reply(:no, :contradicted, interval: ci, **facts) if outside?(ci)

          reply(:not_settled, :undecided, interval: ci, **facts, **more(comparison))
        end

        def outside?(ci) = ci.high < 1 / (1 + margin) || ci.low > 1 + margin
      end

      register("ties", Ties)
    end
  end
end
