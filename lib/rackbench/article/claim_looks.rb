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
    #   looks = ClaimLooks.for(suite)           # nil for a suite without claims
    #   looks.open_cells(measurements)          # => the Measurements an unsettled claim reads
    class ClaimLooks
      SETTLED = %i[yes no equivalent cannot_show_here].freeze

      # The suite's claims as a stopping rule; nil when it has none.
      def self.for(suite, server_cpus: nil)
        specs = suite["article"]&.dig("claims") || []
        return nil if specs.empty?

        new(specs, scaled: suite["scaled"], margin: suite["margin"], server_cpus: server_cpus || Preflight.server_cpus(suite))
      end

      def initialize(specs, scaled: nil, margin: nil, server_cpus: nil)
        @specs = specs
        @scaled = scaled
        @margin = margin
        @server_cpus = server_cpus
      end

      # The measurements (Measurement, one per cell of the run that has not
      # failed) that a claim not yet settled reads.
      def open_cells(measurements)
        claims(measurements).reject { |claim| settled?(claim) }.flat_map(&:involved).uniq
      end

      # The claims not yet settled by these measurements, in words (progress, tests).
      def unsettled(measurements) = claims(measurements).reject { |claim| settled?(claim) }.map(&:says)

      def to_s = "each of the article's claims"

      private

      def claims(measurements)
        @specs.map { |spec| Claim.new(spec, measurements, scaled: @scaled, server_cpus: @server_cpus, margin: @margin) }
      end

      def settled?(claim) = SETTLED.include?(claim.answer.outcome)
    end
  end
end
