# frozen_string_literal: true

module Rackbench
  # Chi-square quantiles (Wilson & Hilferty's cube-root normal
  # approximation: within about 1 % of the exact quantile from 3 degrees of
  # freedom on) and the interval of a variance from a mean square.
  module ChiSquare
    module_function

    # The p-quantile of chi-square with dof degrees of freedom.
    def quantile(p, dof)
      z = StudentT.quantile(p, 1_000_000)
      k = dof.to_f
      [k * ((1 - (2 / (9 * k)) + (z * Math.sqrt(2 / (9 * k))))**3), 1e-12].max
    end

    # The `level` interval of a variance whose mean square is ms with dof degrees of freedom.
    def variance_interval(mean_square, dof, level)
      tail = (1 - level) / 2
      [dof * mean_square / quantile(1 - tail, dof), dof * mean_square / quantile(tail, dof)]
    end
  end
end
