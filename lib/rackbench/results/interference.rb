# frozen_string_literal: true

module Rackbench
  # How much of an A/A pair's window noise is other processes taking the
  # CPU, from what every window records (Noise: other_cpu_share of the
  # measured CPUs). Within each start, the paired log difference of a
  # round's two windows is regressed on the difference of their other
  # shares (one slope for the run, least squares over the rounds centred on
  # their start's means): the spread left is what interference does not
  # explain. Only for identical configs (`rackbench calibrate`): between
  # configs that differ, a faster server leaves other processes a different
  # share, so the share is partly the outcome and adjusting for it would
  # pull real differences toward 1. A duet (`duet: true`) equalises the
  # interference by design instead.
  #
  #   i = Interference.new(a, b)
  #   i.spread_cv            # 0.367: the paired window difference's spread within starts
  #   i.unexplained_cv       # 0.194: what is left once other processes' share is accounted for
  #   i.explained_share      # 0.72: of the variance
  class Interference
    MIN_ROUNDS = 6

    attr_reader :slope

    def initialize(a, b)
      @rows = rows(a, b)
      fit if estimable?
    end

    def estimable? = @rows.size >= MIN_ROUNDS && @rows.size > starts + 1 && @rows.any? { |_, _, x| x.abs.positive? }

    def rounds = @rows.size

    # The spread of a round's paired log difference within its start, as a CV; nil when not estimable.
    def spread_cv = estimable? ? cv(@spread_variance) : nil

    # The same once the difference of the windows' other shares is accounted for.
    def unexplained_cv = estimable? ? cv(@unexplained_variance) : nil

    def explained_share
      return nil unless estimable? && @spread_variance.positive?

      (1 - (@unexplained_variance / @spread_variance)).clamp(0.0, 1.0)
    end

    def to_h
      { "rounds" => rounds, "spread_cv" => spread_cv, "unexplained_cv" => unexplained_cv,
        "explained_share" => explained_share, "slope" => slope }
    end

    private

    def starts = @rows.map(&:first).uniq.size

    # [start, log difference, other share difference] per round where both windows have both.
    def rows(a, b)
      by_round = b.repeats.to_h { |r| [r.round, r] }
      a.repeats.filter_map do |r|
        pair = [r, by_round[r.round]]
        next unless pair.all? { |w| usable?(w) }

        x, y = pair.map { |w| Math.log(w.good_requests_per_s) }
        [r.deployment, x - y, pair[0].noise["other_cpu_share"] - pair[1].noise["other_cpu_share"]]
      end
    end

    def usable?(window) = window&.good_requests_per_s.to_f.positive? && window.noise&.dig("other_cpu_share")

    def fit
      centred = @rows.group_by(&:first).values.flat_map do |list|
        mean_d = Stats.mean(list.map { |row| row[1] })
        mean_x = Stats.mean(list.map { |row| row[2] })
        list.map { |_, d, x| [d - mean_d, x - mean_x] }
      end
      sxx = centred.sum { |_, x| x * x }
      @slope = sxx.positive? ? centred.sum { |d, x| d * x } / sxx : 0.0
      df = centred.size - starts
      @spread_variance = centred.sum { |d, _| d * d } / df
      @unexplained_variance = centred.sum { |d, x| (d - (@slope * x))**2 } / (df - 1)
    end

    def cv(variance) = Math.sqrt(Math.exp(variance) - 1)
  end
end
