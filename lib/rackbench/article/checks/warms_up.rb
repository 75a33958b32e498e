# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a runs slower in its first seconds than later, on each cold start
      # (its first window on a fresh deployment): per start, the mean rate of
      # the series' first quarter over that of its last half; the interval is
      # Student t over starts (log scale, StartSample), so its level is real.
      # "yes" when the whole interval lies below WARM_UP_SHARE (at least 10 %
      # slower at first), "no" when above it; one start gives no interval.
      #
      #   - says: TorqueBox warms up (its first seconds slower than the rest)
      #     kind: warms_up
      class WarmsUp < Check
        WARM_UP_SHARE = 0.9
        MIN_POINTS = 4

        def answer
          a = claim.find(claim.spec["a"])
          return unmeasured(a, sides: %w[a]) unless a&.ok?

          series = cold_series(a)
          facts = { a: { "label" => a.label }, engine: a.cell["engine"], starts: series.size,
                    head_s: series.first && head(series.first).size, tail_s: series.first && tail(series.first).size }
          return reply(:cannot_show_here, :no_series, **facts) if series.empty?

          decide(series, facts, a.measurement)
        end

        private

        def decide(series, facts, measurement)
          ratios = series.map { |xs| Stats.mean(head(xs)) / Stats.mean(tail(xs)) }
          sample = StartSample.new(ratios.map { |r| [r] })
          ci = sample.interval
          facts = facts.merge(share: WARM_UP_SHARE, estimate: sample.estimate)
          return reply(:not_settled, :one_start, **facts) unless ci
          return reply(:yes, :supported, interval: ci, **facts) if ci.high < WARM_UP_SHARE
          return reply(:no, :contradicted, interval: ci, **facts) if ci.low > WARM_UP_SHARE

          reply(:not_settled, :undecided, interval: ci, **facts,
                                          **more_to_clear(ci, WARM_UP_SHARE, series.size, [measurement]))
        end

        def head(xs) = xs.first([xs.size / 4, 1].max)
        def tail(xs) = xs.last(xs.size / 2)

        # The per-second rates of each start's first window, where it has MIN_POINTS seconds.
        def cold_series(figure)
          cold = figure.measurement.repeats.group_by(&:deployment).map { |_, list| list.min_by(&:index) }
          cold.map { |r| rates(r) }.select { |xs| xs.size >= MIN_POINTS && Stats.mean(xs.last(xs.size / 2)).positive? }
        end

        # Requests per second of each point of a repeat's series.
        def rates(repeat)
          points = repeat.result.series
          points.each_with_index.filter_map do |point, i|
            interval_s = i.zero? ? point["t_s"] : point["t_s"] - points[i - 1]["t_s"]
            point["requests"] / interval_s if interval_s.to_f.positive?
          end
        end
      end

      register("warms_up", WarmsUp)
    end
  end
end
