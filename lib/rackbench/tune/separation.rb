# frozen_string_literal: true

module Rackbench
  module Tune
    # Whether a leading config's knee is ahead of the runner-up's: the ratio
    # of their knees (each the geometric mean of its confirmed searches'
    # centres, KneeSample#centres) with an interval from the spread between
    # searches pooled over every config searched more than once (log scale,
    # Student t with the pooled degrees of freedom). A config searched once
    # has no spread of its own but its one knee is as uncertain as any
    # search's, so pooling lets two configs be told apart before each has
    # been searched three times. The policy looks after every confirming
    # search, so the level is Bonferroni-corrected for the looks it may take
    # (LOOKS): a settled ranking is settled at 95 % over all of them.
    #
    #   s = Separation.new(leader, runner_up, outcomes)
    #   s.ratio       # 1.29: the leader's knee over the runner-up's
    #   s.interval    # a LogInterval of the ratio, nil until some config was searched twice
    #   s.separated?  # the interval lies wholly above 1
    class Separation
      LOOKS = 4

      attr_reader :leader, :runner_up

      # leader, runner_up: Tuner::Outcome (knee: a KneeSample); outcomes: every config searched.
      def initialize(leader, runner_up, outcomes, level: Stats::LEVEL, looks: LOOKS)
        @leader = leader
        @runner_up = runner_up
        @outcomes = outcomes
        @level = level
        @looks = looks
      end

      def ratio = Math.exp(log_ratio)

      # The pooled spread between searches (a share, e.g. 0.06) and its degrees of freedom; nil without one.
      def spread = pooled&.then { |variance, _| Math.sqrt(variance) }
      def degrees_of_freedom = pooled&.last

      def interval
        variance, df = pooled
        return nil unless variance

        half = StudentT.critical(look_level, df) * Math.sqrt(variance * ((1.0 / size(@leader)) + (1.0 / size(@runner_up))))
        StartSample::LogInterval.around(log_ratio, half, @level)
      end

      def separated? = interval ? interval.low > 1 : false

      # The level of each look, so that all LOOKS together hold @level.
      def look_level = 1 - ((1 - @level) / @looks)

      private

      def logs(outcome) = outcome.knee.centres.map { |c| Math.log(c) }
      def size(outcome) = logs(outcome).size
      def log_ratio = Stats.mean(logs(@leader)) - Stats.mean(logs(@runner_up))

      # [variance, degrees of freedom] of the log centres about each config's own mean.
      def pooled
        groups = @outcomes.filter_map { |o| o.knee && logs(o) }.select { |l| l.size >= 2 }
        df = groups.sum { |l| l.size - 1 }
        return nil if df.zero?

        [groups.sum { |l| squares(l) } / df, df]
      end

      def squares(logs)
        mean = Stats.mean(logs)
        logs.sum { |x| (x - mean)**2 }
      end
    end
  end
end
