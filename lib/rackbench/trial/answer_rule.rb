# frozen_string_literal: true

module Rackbench
  # The one rule for a good answer, which every check on the trial path
  # applies (the run's verify step, tune, `rackbench verify`, `servers
  # --probe`, init) and which the native engine applies to every answer
  # under load (#engine_args), in this order:
  #
  #   1. the request's own expectation: a suite's expect_status (any of
  #      them, or a Range) and expect_body (contained in the body);
  #   2. else, when the app serves the workload catalogue (a bundled app),
  #      the catalogue's expectation of the path (Apps.catalogue_expectation:
  #      status 200, the endpoint's media type and its body);
  #   3. else any status from 200 to 399.
  #
  #   rule = AnswerRule.new(catalogue: Apps.bundled?("rack"), env: env)
  #   rule.problems(request, status, headers, body)  # => [] when the answer is good
  #   rule.engine_args(request)   # => ["--expect-status", "200", "--expect-body", "hello world"]
  #
  # Under load the engine checks the status and a text the body contains;
  # the catalogue's media type, its patterns and page checks, and a body
  # longer than the engine searches for stay with the verify step, which
  # holds every start's first answer to the whole rule.
  class AnswerRule
    DEFAULT_STATUSES = (200..399)
    EXCERPT_BYTES = 200
    # The longest text the engine looks for in a body (ext/rackbench_load/http.h: HTTP_EXPECT_MAX_BYTES).
    ENGINE_BODY_MAX_BYTES = 256

    # What the rule expects of one request's answers: statuses (a list or a
    # Range) and a text the body must contain (nil: any body).
    Expected = Struct.new(:statuses, :body)

    # catalogue: whether the app serves the catalogue's endpoints; env: the
    # app's env (some expected bodies depend on the services it names).
    def initialize(catalogue: false, env: {})
      @catalogue = catalogue
      @env = env
    end

    # What is wrong with the answer (status, headers, body) to request; empty when it is good.
    def problems(request, status, headers, body)
      expectation = own?(request) ? nil : catalogue_expectation(request.path)
      return expectation.problems(status, headers, body) if expectation

      expected_problems(expected(request), status, body.to_s)
    end

    # The statuses and body text request's answers are held to, as far as the
    # engine can check them (nil request: the default).
    def expected(request)
      return Expected.new(request.expect_status || DEFAULT_STATUSES, request.expect_body) if own?(request)

      expectation = request && catalogue_expectation(request.path)
      # several paths (ids): each its own body, so the status only
      return Expected.new([200], request.paths.size == 1 ? engine_body(expectation.body) : nil) if expectation

      Expected.new(DEFAULT_STATUSES, nil)
    end

    # The rule as rackbench-load's options for request's answers: --expect-status
    # ("200-399", "200,204") and, when a text is expected, --expect-body.
    def engine_args(request)
      expected = expected(request)
      args = ["--expect-status", statuses_option(expected.statuses)]
      expected.body ? [*args, "--expect-body", expected.body] : args
    end

    private

    def own?(request) = request && (request.expect_status || request.expect_body)

    def catalogue_expectation(path)
      @catalogue ? Apps.catalogue_expectation(path, @env) : nil
    end

    # A catalogue body the engine can look for: a text it can hold (not a pattern or a page check).
    def engine_body(body)
      body.is_a?(String) && !body.empty? && body.bytesize <= ENGINE_BODY_MAX_BYTES ? body : nil
    end

    def statuses_option(statuses)
      statuses.is_a?(Range) ? "#{statuses.first}-#{statuses.last}" : Array(statuses).join(",")
    end

    def expected_problems(expected, status, body)
      statuses = expected.statuses.is_a?(Range) ? expected.statuses : Array(expected.statuses)
      found = status_problems(statuses, status, body)
      return found unless found.empty? && expected.body && !body.include?(expected.body)

      ["body does not contain #{expected.body.inspect}: #{excerpt(body)}"]
    end

    def status_problems(expected, status, body)
      return [] if expected.include?(status)

      wanted = expected.is_a?(Range) ? "#{expected.first} to #{expected.last}" : expected.join(" or ")
      ["status #{status}, expected #{wanted}: #{excerpt(body)}"]
    end

    def excerpt(body) = body[0, EXCERPT_BYTES].inspect
  end
end
