# frozen_string_literal: true

module Rackbench
  # Measurements nested in server starts: the model behind every interval
  # rackbench prints (Kalibera & Jones, "Rigorous benchmarking in reasonable
  # time", ISMM 2013). A start (a fresh deployment of the server) is measured in
  # one or more windows; windows of one start share whatever that start drew
  # (memory layout, which cores, JIT and GC state, the machine's mood), so they
  # are not independent, and a start, not a window, is the unit of noise.
  #
  # Values are analysed on the log scale (throughputs and latencies are
  # ratios at heart: 10 % faster is the same step at 100 and at 10,000 req/s):
  #
  #   sample = StartSample.new([[w11, w12], [w21, w22], [w31, w32]])  # values of windows, per start
  #   sample.estimate          # exp(mean over starts of each start's mean log)
  #   sample.interval          # Student t over the start means (starts - 1 degrees of freedom)
  #   sample.interval(first_stage: 4)  # Stein's two-stage interval, when the number of
  #                                    # starts was chosen from the first 4 (RepeatPolicy)
  #   sample.within_variance   # between windows of one start (log scale)
  #   sample.between_variance  # between starts, beyond what the windows explain
  #
  # The t interval over start means is exact when start means are normal on
  # the log scale, whatever the split of variance between the two levels;
  # test/results/coverage_test.rb measures its coverage on synthetic data of
  # known truth, and `rackbench calibrate` on this machine's own noise.
  class StartSample
    attr_reader :groups

    # groups: [[value, ...], ...], one list per start; non-positive values
    # (a window that served nothing) cannot be logged and are left out.
    def initialize(groups)
      @groups = groups.map { |g| g.compact.select(&:positive?) }.reject(&:empty?)
    end

    # Groups from items that each say their start: `start_of` and `value_of`
    # read an item (a Repeat, say).
    def self.of(items, start_of:, value_of:)
      new(items.group_by(&start_of).sort_by { |start, _| start.to_i }.map { |_, list| list.map(&value_of) })
    end

    def starts = groups.size
    def windows = groups.sum(&:size)

    # Each start's mean on the log scale, in start order.
    def start_logs = @start_logs ||= groups.map { |g| Stats.mean(g.map { |x| Math.log(x) }) }

    def estimate = starts.zero? ? nil : Math.exp(Stats.mean(start_logs))

    # The `level` interval of the estimate; nil with fewer than two starts (one
    # start says nothing about the next). first_stage: the number of starts
    # from which the policy decided how many to run (Stein's procedure: the
    # spread of those first starts, with their degrees of freedom, sizes the
    # interval, so deciding to stop cannot narrow it by luck).
    def interval(level: Stats::LEVEL, first_stage: nil)
      return nil if starts < 2

      spread, df = if first_stage && first_stage >= 2 && first_stage < starts
                     [Stats.stddev(start_logs.first(first_stage)), first_stage - 1]
                   else
                     [Stats.stddev(start_logs), starts - 1]
                   end
      LogInterval.around(Stats.mean(start_logs), StudentT.critical(level, df) * spread / Math.sqrt(starts), level)
    end

    # Pooled variance of log values between windows of the same start.
    def within_variance
      df = windows - starts
      return nil unless df.positive?

      groups.each_with_index.sum do |g, i|
        g.sum { |x| (Math.log(x) - start_logs[i])**2 }
      end / df
    end

    # Variance of start means beyond what their windows' spread explains
    # (method of moments; 0 when the windows explain it all).
    def between_variance
      return nil if starts < 2

      total = Stats.stddev(start_logs)**2
      within = within_variance or return total
      [total - (within / windows_per_start), 0.0].max
    end

    # Harmonic mean of windows per start (their count when all are alike).
    def windows_per_start = starts / groups.sum { |g| 1.0 / g.size }

    # Coefficients of variation at each level, from the log-scale variances.
    def within_cv = within_variance&.then { |v| Math.sqrt(Math.exp(v) - 1) }
    def between_cv = between_variance&.then { |v| Math.sqrt(Math.exp(v) - 1) }

    # Intervals on the log scale, reported as factors of the estimate.
    module LogInterval
      module_function

      # exp(centre ± half) as a Stats::Interval.
      def around(centre, half, level)
        Stats::Interval.new(Math.exp(centre - half), Math.exp(centre + half), Math.exp(centre), level)
      end
    end
  end
end
