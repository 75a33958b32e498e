# frozen_string_literal: true

module Rackbench
  # Two runs side by side, cell by cell: the gate a project puts in its CI
  # when it upgrades a server or Ruby. Cells match by server config, endpoint
  # name (its path unless the suite names it) and concurrency. Each match is a Comparison of new against baseline
  # (unpaired: the runs' rounds are unrelated); a cell *regressed* when the
  # ratio's CI lies wholly below 1 and the ratio is below 1 - threshold
  # (Stats). Created by `rackbench compare` and `rackbench run --baseline`.
  #
  #   r = Regression.new(baseline_measurements, new_measurements, threshold: 0.05)
  #   r.rows        # => [Row(key, baseline, current, comparison, outcome)]
  #   r.regressed?  # any row's outcome is :regressed
  class Regression
    Row = Struct.new(:label, :endpoint, :concurrency, :baseline, :current, :comparison, :outcome, keyword_init: true)

    OUTCOMES = %i[regressed improved no_difference not_compared].freeze

    attr_reader :threshold, :metric

    def initialize(baseline, current, threshold: 0.05, metric: "requests_per_s")
      @baseline = baseline
      @current = current
      @threshold = threshold
      @metric = metric
    end

    def rows
      @rows ||= @current.filter_map do |now|
        before = @baseline.find { |m| key(m) == key(now) }
        next unless before

        comparison = Comparison.new(now, before, metric: metric, paired: false)
        Row.new(label: now.label, endpoint: now.endpoint, concurrency: now.concurrency, baseline: before,
                current: now, comparison: comparison, outcome: outcome(comparison))
      end
    end

    # Cells of either run without a match in the other.
    def unmatched
      keys = rows.map { |r| key(r.current) }
      (@current + @baseline).reject { |m| keys.include?(key(m)) }.map { |m| "#{m.label} #{m.path} c=#{m.concurrency}" }.uniq
    end

    def regressed? = rows.any? { |r| r.outcome == :regressed }

    # "-12.3 % [-15.9, -8.1]": the change of new against baseline, with its CI.
    def change_text(row)
      ci = row.comparison.ci
      return "-" unless ci

      format("%+.1f %% [%+.1f, %+.1f]", (ci.estimate - 1) * 100, (ci.low - 1) * 100, (ci.high - 1) * 100)
    end

    private

    # The endpoint by its name (its path unless the suite names it), so a
    # suite can change what an endpoint does and still be compared.
    def key(measurement) = [measurement.config, measurement.endpoint, measurement.concurrency, measurement.offered_rate_per_s]

    def outcome(comparison)
      return :not_compared unless comparison.measured?

      ci = comparison.ci
      case Stats.side_of_one(ci)
      when :below then ci.estimate < 1 - threshold ? :regressed : :no_difference
      when :above then :improved
      else :no_difference
      end
    end
  end
end
