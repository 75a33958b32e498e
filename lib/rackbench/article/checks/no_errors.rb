# frozen_string_literal: true

module Rackbench
  module Article
    module Checks
      # a answered every request well: "yes" with no error in any window,
      # "no" with the count.
      #
      #   - says: Puma serves 10,000 numbers (Sinatra, no cache) without errors
      #     kind: no_errors
      class NoErrors < Check
        def answer
          a = claim.find(claim.spec["a"])
          return unmeasured(a, sides: %w[a]) unless a&.ok?

          facts = { a: { "label" => a.label }, errors: a.errors, attempted: a.attempted }
          a.errors.zero? ? reply(:yes, :supported, **facts) : reply(:no, :contradicted, **facts)
        end
      end

      register("no_errors", NoErrors)
    end
  end
end
