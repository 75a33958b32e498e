# frozen_string_literal: true

module Rackbench
  # The one rule for a good answer, which every check on the trial path
  # applies (the run's verify step, tune, `rackbench verify`, `servers
  # --probe`, init), in this order:
  #
  #   1. the request's own expectation: a suite's expect_status (any of
  #      them, or a Range) and expect_body (contained in the body);
  #   2. else, when the app serves the workload catalogue (a bundled app),
  #      the catalogue's expectation of the path (Apps::Expectation: status
  #      200, the endpoint's media type and its body);
  #   3. else any status from 200 to 399.
  #
  #   rule = AnswerRule.new(catalogue: Apps.bundled?("rack"), env: env)
  #   rule.problems(request, status, headers, body)  # => [] when the answer is good
  class AnswerRule
    DEFAULT_STATUSES = (200..399)
    EXCERPT_BYTES = 200

    # catalogue: whether the app serves the catalogue's endpoints; env: the
    # app's env (some expected bodies depend on the services it names).
    def initialize(catalogue: false, env: {})
      @catalogue = catalogue
      @env = env
    end

    # What is wrong with the answer (status, headers, body) to request; empty when it is good.
    def problems(request, status, headers, body)
      return own_problems(request, status, body.to_s) if request.expect_status || request.expect_body

      expectation = catalogue_expectation(request.path)
      return expectation.problems(status, headers, body) if expectation

      status_problems(DEFAULT_STATUSES, status, body.to_s)
    end

    private

    def catalogue_expectation(path)
      return nil unless @catalogue

      Apps.endpoints.each do |endpoint|
        expectation = endpoint.expectation(path, @env)
        return expectation if expectation
      end
      nil
    end

    def own_problems(request, status, body)
      expected = request.expect_status || DEFAULT_STATUSES
      found = status_problems(expected.is_a?(Range) ? expected : Array(expected), status, body)
      return found unless found.empty? && request.expect_body && !body.include?(request.expect_body)

      ["body does not contain #{request.expect_body.inspect}: #{excerpt(body)}"]
    end

    def status_problems(expected, status, body)
      return [] if expected.include?(status)

      wanted = expected.is_a?(Range) ? "#{expected.first} to #{expected.last}" : expected.join(" or ")
      ["status #{status}, expected #{wanted}: #{excerpt(body)}"]
    end

    def excerpt(body) = body[0, EXCERPT_BYTES].inspect
  end
end
