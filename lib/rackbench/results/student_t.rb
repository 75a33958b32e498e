# frozen_string_literal: true

module Rackbench
  # Student's t distribution: its CDF and quantiles, for intervals and tests
  # over a handful of server starts (2 to ~30 degrees of freedom), where the
  # normal approximation is far too narrow (t at 95 % with 2 degrees of
  # freedom is 4.30, not 1.96). Pure functions; the regularized incomplete
  # beta function is evaluated by its continued fraction (Lentz's method).
  module StudentT
    EPSILON = 1e-14
    MAX_TERMS = 300

    module_function

    # P(T <= t) for T ~ t(dof).
    def cdf(t, dof)
      raise ArgumentError, "degrees of freedom must be positive, got #{dof}" unless dof.positive?

      x = dof / (dof + (t * t))
      tail = 0.5 * incomplete_beta(x, dof / 2.0, 0.5)
      t.positive? ? 1 - tail : tail
    end

    # The t with P(T <= t) = p, found by bisection on the CDF (monotone).
    def quantile(p, dof)
      raise ArgumentError, "probability must be in (0, 1), got #{p}" unless p.positive? && p < 1
      return -quantile(1 - p, dof) if p < 0.5

      low = 0.0
      high = 1.0
      high *= 2 while cdf(high, dof) < p
      100.times do
        mid = (low + high) / 2
        cdf(mid, dof) < p ? low = mid : high = mid
        break if high - low < 1e-12 * [1.0, high].max
      end
      (low + high) / 2
    end

    CRITICALS = {} # rubocop:disable Style/MutableConstant -- a cache of a pure function, filled as asked

    # The two-sided critical value of a `level` interval: quantile(1 - (1 - level) / 2);
    # remembered for whole degrees of freedom (a sequential run asks the same ones at every look).
    def critical(level, dof)
      return quantile(1 - ((1 - level) / 2.0), dof) unless dof.is_a?(Integer)

      CRITICALS[[level, dof]] ||= quantile(1 - ((1 - level) / 2.0), dof)
    end

    # Two-sided p-value of a t statistic.
    def two_sided_p(t, dof) = 2 * (1 - cdf(t.abs, dof))

    # I_x(a, b), the regularized incomplete beta function.
    def incomplete_beta(x, a, b)
      return 0.0 if x <= 0
      return 1.0 if x >= 1

      log_front = Math.lgamma(a + b).first - Math.lgamma(a).first - Math.lgamma(b).first +
                  (a * Math.log(x)) + (b * Math.log(1 - x))
      front = Math.exp(log_front)
      if x < (a + 1) / (a + b + 2)
        front * beta_fraction(x, a, b) / a
      else
        1 - (front * beta_fraction(1 - x, b, a) / b)
      end
    end

    # The continued fraction of I_x(a, b), by the modified Lentz method.
    def beta_fraction(x, a, b)
      tiny = 1e-300
      c = 1.0
      d = 1 - ((a + b) * x / (a + 1))
      d = tiny if d.abs < tiny
      d = 1 / d
      f = d
      (1..MAX_TERMS).each do |m|
        [(m * (b - m) * x) / ((a + (2 * m) - 1) * (a + (2 * m))),
         -((a + m) * (a + b + m) * x) / ((a + (2 * m)) * (a + (2 * m) + 1))].each do |numerator|
          d = 1 + (numerator * d)
          d = tiny if d.abs < tiny
          c = 1 + (numerator / c)
          c = tiny if c.abs < tiny
          d = 1 / d
          f *= d * c
        end
        break if ((d * c) - 1).abs < EPSILON
      end
      f
    end
  end
end
