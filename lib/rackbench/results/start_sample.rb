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
  #   sample.interval(first_stage: 4)  # after a two-stage run whose number of starts was
  #                                    # chosen from the first 4 (RepeatPolicy): the wider of
  #                                    # Stein's interval and every start's (.standard_error)
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
    # start says nothing about the next). first_stage and rule: see
    # .standard_error.
    def interval(level: Stats::LEVEL, first_stage: nil, rule: :wider, sequential: nil)
      se, df = self.class.standard_error(start_logs, level: level, first_stage: first_stage, rule: rule,
                                                     sequential: sequential)
      return nil unless se

      LogInterval.around(Stats.mean(start_logs), StudentT.critical(level, df) * se, level)
    end

    RULES = %i[wider first_stage all_starts].freeze

    # The standard error of the mean of logs (one a start) and its degrees of
    # freedom; nil with fewer than two. After a two-stage run (first_stage:
    # the starts from which RepeatPolicy decided how many to make) the pair
    # that gives the wider interval of two:
    # - Stein's: the first stage's spread with its degrees of freedom, so
    #   deciding to stop cannot narrow the interval by luck;
    # - every start's, with theirs, so a start after the first stage that went
    #   wrong (a window starved of CPU by another process) widens it.
    # Either alone fails on this machine (doc/calibrate.md has the figures).
    # rule: :wider (what rackbench reports); :first_stage or :all_starts
    # (either alone, for Simulation's comparison).
    #
    # A sequential run (sequential: its Sequential design; the Runner looked
    # after every start and stopped when the question was settled): every
    # start's spread, widened so that the `level` critical value gives the
    # repeated confidence interval of the look after n starts (Sequential#critical):
    # the standard error times critical(n) / t(level, n - 1). The p-value from
    # it is the look's nominal test, so Holm's correction stays conservative.
    def self.standard_error(logs, level: Stats::LEVEL, first_stage: nil, rule: :wider, sequential: nil)
      raise ArgumentError, "rule: one of #{RULES.join(", ")}, got #{rule.inspect}" unless RULES.include?(rule)

      n = logs.size
      return nil if n < 2

      every = [Stats.stddev(logs) / Math.sqrt(n), n - 1]
      return [every[0] * sequential.critical(n) / StudentT.critical(level, n - 1), n - 1] if sequential && rule != :all_starts

      return every if rule == :all_starts || !(first_stage && first_stage >= 2 && first_stage < n)

      stein = [Stats.stddev(logs.first(first_stage)) / Math.sqrt(n), first_stage - 1]
      return stein if rule == :first_stage

      [stein, every].max_by { |se, df| StudentT.critical(level, df) * se }
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
