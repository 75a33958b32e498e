# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a beats b on the claim's metric: "yes" when the comparison's interval
      # lies above 1 (and, with `factor: [lo, hi]`, "about twice as fast",
      # lies within that band; straddling an edge of it is not settled); "no"
      # when it lies below 1, or above it but clear of the band; "equivalent"
      # when it lies within ±margin of 1.
      #
      #   - says: Thin beats Unicorn on Rack hello world at 100 clients
      #     a: {server: thin}
      #     b: {server: unicorn}
      class Beats < Check
        def answer
          a, b = claim.pair
          return unmeasured(a, b) unless a&.ok? && b&.ok?

          comparison = compare(a, b)
          facts = { a: figure(a), b: figure(b), band: band }.compact
          return reply(:not_settled, :zero_figure, **facts) unless comparison.measured?

          decide(comparison, facts)
        end

        private

        def band = claim.spec["factor"]

        # Faster; with a band, "yes" only when the whole interval lies in it,
        # "no" when clear of it, else not settled (it straddles an edge: the
        # more starts are those that would bring it clear of the nearest).
        def within_band(comparison, facts)
          ci = comparison.ci
          return reply(:yes, :supported, interval: ci, **facts) if band.nil? || (ci.low >= band.min && ci.high <= band.max)
          return reply(:no, :outside_band, interval: ci, **facts) if ci.low > band.max || ci.high < band.min

          edge = band.minmax.min_by { |e| Math.log(e / ci.estimate).abs }
          reply(:not_settled, :undecided, interval: ci, **facts,
                                          **more_to_clear(ci, edge, comparison.starts, [comparison.a, comparison.b]))
        end

        def decide(comparison, facts)
          ci = comparison.ci
          case comparison.verdict
          when :a_better then within_band(comparison, facts)
          when :b_better then reply(:no, :contradicted, interval: ci, **facts)
          when :equivalent then reply(:equivalent, :within_margin, interval: ci, margin: comparison.margin, **facts)
          else unsettled(comparison, **facts)
          end
        end
      end

      register("beats", Beats)
    end
  end
end
