# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a is ahead of every rival at its level ("leads"), or behind every one
      # ("trails"): each comparison's interval on the claim's side of 1 (an
      # intersection-union test, each at the run's level). "no" as soon as one
      # rival is on the other side. On good responses (the default metric) a
      # rival that fails requests is still compared on those it answered.
      # rivals: limits them to the configs the article measured.
      #
      #   - says: Puma has the highest throughput with Sinatra on 10 numbers
      #     kind: leads
      #     a: {server: puma, app: sinatra}
      #     rivals: [{server: thin}, {server: passenger}, {server: unicorn}]
      class Leads < Check
        def answer
          a = claim.find(claim.spec["a"])
          return unmeasured(a, sides: %w[a]) unless a&.ok?

          all = rivals(a)
          missing = all.reject(&:ok?).map(&:label).uniq
          comparisons = all.select(&:ok?).map { |rival| compare(a, rival) }.select(&:measured?)
          return reply(:cannot_show_here, :not_measured, failures: failures(all)) if comparisons.empty?

          decide(comparisons, a, missing)
        end

        private

        def ahead = :a_better
        def behind = :b_better

        def rivals(a)
          listed = claim.spec["rivals"]
          others = claim.others_at_level(a)
          listed ? others.select { |f| listed.any? { |match| claim.matches?(f, match) } } : others
        end

        def failures(all) = all.reject(&:ok?).map { |f| { "label" => f.label, "reason" => f.reason } }

        # The answer names the rival whose interval it gives (facts "rival",
        # "against"): the closest for yes; for no the one on the other side;
        # not settled, the closest of those not settled (it once gave one
        # rival's interval beside another's figures: "6.39x ... torquebox
        # 2349.765 vs unicorn 3727.517").
        def decide(comparisons, a, missing)
          facts = { a: figure(a), rivals: comparisons.size, missing: missing }
          if comparisons.all? { |c| c.verdict == ahead }
            shown(:yes, :supported, closest(comparisons), "closest", facts)
          elsif (against = comparisons.find { |c| c.verdict == behind })
            shown(:no, :contradicted, against, "contradicts", facts)
          else
            open = closest(comparisons.reject { |c| c.verdict == ahead })
            unsettled(open, **facts, rival: figure(Figures.new(open.b)), against: "closest_open")
          end
        end

        def closest(comparisons) = comparisons.min_by { |c| ahead == :a_better ? c.ratio : 1 / c.ratio }

        def shown(outcome, reason, comparison, against, facts)
          reply(outcome, reason, interval: comparison.ci, **facts, rival: figure(Figures.new(comparison.b)), against: against)
        end
      end

      # a is behind every rival: "Unicorn was the slowest".
      class Trails < Leads
        private

        def ahead = :b_better
        def behind = :a_better
      end

      register("leads", Leads)
      register("trails", Trails)
    end
  end
end
