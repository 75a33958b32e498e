# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a fails more than `share` of its requests: the share of failed
      # requests per server start, with a Student t interval over starts;
      # "yes" when the interval lies above share, "no" when below it.
      #
      #   - says: Passenger rejects most heavy requests (the article: 86 %)
      #     kind: errs
      #     share: 0.5
      class Errs < Check
        def answer
          a = claim.find(claim.spec["a"])
          return unmeasured(a, sides: %w[a]) unless a&.ok?

          shares = start_shares(a)
          facts = { a: { "label" => a.label }, errors: a.errors, attempted: a.attempted, share: share, starts: shares.size }
          ci = interval(shares)
          return reply(:not_settled, :one_start, **facts) unless ci

          decide(ci, facts, a.measurement)
        end

        private

        def share = claim.spec.fetch("share", 0.5)

        def decide(ci, facts, measurement)
          return reply(:yes, :supported, interval: ci, **facts) if ci.low > share
          return reply(:no, :contradicted, interval: ci, **facts) if ci.high < share

          reply(:not_settled, :undecided, interval: ci, **facts,
                                          **more_to_clear(ci, share, facts[:starts], [measurement], log: false))
        end

        # Each start's failed requests over its attempted ones.
        def start_shares(figure)
          figure.measurement.repeats.group_by(&:deployment).map do |_, list|
            attempted = list.sum { |r| r.result.total }
            attempted.zero? ? 0.0 : list.sum { |r| r.result.error_count }.fdiv(attempted)
          end
        end

        # Mean ± t over starts, kept within [0, 1]; nil with one start.
        def interval(shares)
          return nil if shares.size < 2

          mean = Stats.mean(shares)
          half = StudentT.critical(Stats::LEVEL, shares.size - 1) * Stats.stddev(shares) / Math.sqrt(shares.size)
          Stats::Interval.new([mean - half, 0.0].max, [mean + half, 1.0].min, mean, Stats::LEVEL)
        end
      end

      register("errs", Errs)
    end
  end
end
