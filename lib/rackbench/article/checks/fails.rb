# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a could not be started at the article's size (003's Passenger with a
      # pool of 500): "yes" when its cell there failed while the same config
      # ran at a smaller level; "no" when it was measured. A run scaled below
      # the article's level cannot show it, nor one where the server failed
      # at every level (then it cannot run here at all).
      #
      #   - says: Passenger would not start with a pool of 500
      #     kind: fails
      #     a: {server: passenger}
      #     endpoint: sleep
      #     concurrency: 500
      class Fails < Check
        def answer
          moved = claim.scaled_away
          return reply(:cannot_show_here, :scaled_away, scaled: moved) unless moved.empty?

          a = claim.find(claim.spec["a"])
          return unmeasured(a, sides: %w[a]) unless a
          return reply(:no, :started, a: { "label" => a.label }) if a.ok?

          elsewhere = claim.at_every_level(claim.spec["a"]).reject { |f| f.cell["concurrency"] == a.cell["concurrency"] }
          return unmeasured(a, sides: %w[a]) unless elsewhere.any?(&:ok?)

          reply(:yes, :failed_to_start, a: { "label" => a.label, "reason" => a.reason })
        end
      end

      register("fails", Fails)
    end
  end
end
