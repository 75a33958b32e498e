# frozen_string_literal: true

module Rackbench
  module Article
    # What a seed article's claim came to on a stored run, as data: the
    # outcome, the interval it rests on, why (a reason symbol) and the facts a
    # report needs to say it (the figures compared, the CPUs, the starts more
    # would take). Created by Claim#answer and Preflight; reports turn it into
    # words (Reports::ClaimText), nothing reads it back from words.
    #
    #   answer = Claim.new(spec, cells).answer
    #   answer.kind        # the claim's kind: "beats", "ties", ...
    #   answer.outcome     # :yes, :no, :equivalent, :not_settled or :cannot_show_here
    #   answer.interval    # Stats::Interval the outcome rests on (nil where none was formed)
    #   answer.reason      # :supported, :contradicted, :within_margin, :outside_band, :undecided,
    #                      # :one_start, :errors, :zero_figure, :too_few_cpus, :too_few_clients, :not_installed, :not_measured,
    #                      # :no_series, :scaled_away, :failed_to_start, :started
    #   answer.facts       # {"a" => {"label", "value", "unit"}, "b" => ..., "needs_cpus" => 8, ...}
    #   answer.decided?    # yes, no or equivalent
    class Answer
      OUTCOMES = %i[yes no equivalent not_settled cannot_show_here].freeze
      DECIDED = %i[yes no equivalent].freeze
      REASONS = %i[supported contradicted within_margin outside_band undecided one_start errors zero_figure
                   too_few_cpus too_few_clients not_installed not_measured no_series scaled_away failed_to_start
                   started].freeze

      attr_reader :says, :kind, :outcome, :interval, :reason, :facts

      def initialize(outcome:, reason:, says: nil, kind: nil, interval: nil, facts: {})
        raise ArgumentError, "unknown outcome #{outcome.inspect}" unless OUTCOMES.include?(outcome)
        raise ArgumentError, "unknown reason #{reason.inspect}" unless REASONS.include?(reason)

        @says = says
        @kind = kind
        @outcome = outcome
        @interval = interval
        @reason = reason
        @facts = facts
      end

      def decided? = DECIDED.include?(outcome)

      # The same answer, said of a claim (its words and kind).
      def for(says, kind) = Answer.new(says: says, kind: kind, outcome: outcome, interval: interval, reason: reason, facts: facts)

      # The answer overruled: the outcome and reason change, the interval and
      # the figures stay, and what was measured is kept as facts["measured"].
      def overruled(outcome, reason, **facts)
        Answer.new(says: says, kind: kind, outcome: outcome, interval: interval, reason: reason,
                   facts: self.facts.merge(facts.transform_keys(&:to_s)).merge("measured" => self.outcome))
      end

      def ==(other) = other.is_a?(Answer) && to_h == other.to_h

      def to_h
        { "says" => says, "kind" => kind, "outcome" => outcome.to_s, "reason" => reason.to_s,
          "interval" => interval && { "low" => interval.low, "high" => interval.high, "estimate" => interval.estimate,
                                      "level" => interval.level },
          "facts" => facts }
      end
    end
  end
end
