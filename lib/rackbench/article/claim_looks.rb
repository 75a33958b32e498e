# frozen_string_literal: true

require_relative "claim"
require_relative "preflight"

module Rackbench
  module Article
    # What a seed run's sequential stopping follows: its claims, not each
    # block's leader against its runner-up. At each look (RepeatPolicy
    # questions:) every claim is answered from the cells measured so far,
    # with the same Claim and Checks a report uses; the cells an unsettled
    # claim reads (a, b, a leader's rivals) get another start, the others
    # stop. A claim is settled once its answer is yes, no, equivalent, or
    # cannot show here (a side failed or is missing). A cell no claim reads
    # stops at the first look: the rest of the article's table, at the first
    # stage's precision. The statistics are the claims' own (Comparison,
    # StartSample with the run's Sequential design), so nothing stops on a
    # verdict the report would not print.
    #
    # A claim out of reach stops too: one whose answer says it would take
    # more than FUTILE times the starts the run has left (max_starts) to
    # settle. Its cells' starts go to the claims that can still be settled
    # (puma-vs-unicorn-2016 kept its fibonacci cells at one client for a tie
    # that needed about 2,485 more starts, and ran out of budget with two
    # claims 2 starts short); its page says the interval and the starts more
    # would take, as for any claim left open.
    #
    #   looks = ClaimLooks.for(suite)           # nil for a suite without claims
    #   looks.open_cells(measurements)          # => the Measurements an unsettled claim reads
    class ClaimLooks
      SETTLED = %i[yes no equivalent cannot_show_here].freeze
      # The starts a claim may want beyond those left before it is out of
      # reach: an estimate from 3 starts' spread can be off by that much.
      FUTILE = 4

      # The suite's claims as a stopping rule; nil when it has none.
      def self.for(suite, server_cpus: nil)
        specs = suite["article"]&.dig("claims") || []
        return nil if specs.empty?

        new(specs, scaled: suite["scaled"], margin: suite["margin"], server_cpus: server_cpus || Preflight.server_cpus(suite),
                   max_starts: suite["max_deployments"] || Suite::KEYS.fetch("max_deployments").default)
      end

      # max_starts: the run's most starts a cell (nil: no claim is out of reach).
      def initialize(specs, scaled: nil, margin: nil, server_cpus: nil, max_starts: nil)
        @specs = specs
        @scaled = scaled
        @margin = margin
        @server_cpus = server_cpus
        @max_starts = max_starts
      end

      # The measurements (Measurement, one per cell of the run that has not
      # failed) that a claim neither settled nor out of reach reads.
      def open_cells(measurements)
        claims(measurements).select { |claim| open?(claim.answer) }.flat_map(&:involved).uniq
      end

      # The claims not yet settled by these measurements, in words (progress, tests).
      def unsettled(measurements) = claims(measurements).reject { |claim| settled?(claim) }.map(&:says)

      def to_s = "each of the article's claims"

      private

      def claims(measurements)
        @specs.map { |spec| Claim.new(spec, measurements, scaled: @scaled, server_cpus: @server_cpus, margin: @margin) }
      end

      def settled?(claim) = SETTLED.include?(claim.answer.outcome)

      def open?(answer) = !SETTLED.include?(answer.outcome) && !out_of_reach?(answer)

      # Its starts more (Checks::Check#more) are over FUTILE times those left.
      def out_of_reach?(answer)
        more, after = answer.facts.values_at("more_starts", "after_starts")
        return false unless @max_starts && more && after

        more > FUTILE * [@max_starts - after, 0].max
      end
    end
  end
end
