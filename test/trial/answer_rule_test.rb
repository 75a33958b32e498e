# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The one rule for a good answer: the request's own expectation, else the
  # catalogue's (for an app that serves it), else any 2xx or 3xx.
  class AnswerRuleTest < Minitest::Test
    PLAIN = { "content-type" => "text/plain" }.freeze

    def request(extra = {}) = Request.new({ "path" => "/hello" }.merge(extra))
    def catalogue = AnswerRule.new(catalogue: true)

    def test_any_2xx_or_3xx_is_good_without_an_expectation
      rule = AnswerRule.new
      assert_empty rule.problems(request, 200, {}, "anything")
      assert_empty rule.problems(request, 302, {}, "")
      assert_equal ['status 404, expected 200 to 399: "not found"'], rule.problems(request, 404, {}, "not found")
    end

    def test_the_catalogue_holds_a_path_it_knows_to_its_status_media_type_and_body
      assert_empty catalogue.problems(request, 200, PLAIN, "hello world")
      assert_equal ['body "hi", expected "hello world"'], catalogue.problems(request, 200, PLAIN, "hi")
      assert_equal ["status 302, expected 200"], catalogue.problems(request, 302, PLAIN, "hello world")
    end

    def test_a_path_outside_the_catalogue_takes_the_default
      assert_empty catalogue.problems(request("path" => "/users/1"), 301, {}, "")
    end

    def test_the_requests_own_expectation_wins_over_the_catalogue
      created = request("expect_status" => 201)
      assert_empty catalogue.problems(created, 201, {}, "made")
      assert_equal ['status 200, expected 201: "hello world"'], catalogue.problems(created, 200, PLAIN, "hello world")
    end

    def test_several_statuses_a_range_and_a_body_are_expectations_too
      rule = AnswerRule.new
      either = request("expect_status" => [200, 204])
      assert_equal ['status 500, expected 200 or 204: ""'], rule.problems(either, 500, {}, "")
      success = request("expect_status" => (200..299))
      assert_empty rule.problems(success, 204, {}, "")
      assert_equal ['status 302, expected 200 to 299: ""'], rule.problems(success, 302, {}, "")
      body = request("expect_body" => "world")
      assert_empty rule.problems(body, 200, {}, "hello world")
      assert_equal ['body does not contain "world": "hello"'], rule.problems(body, 200, {}, "hello")
    end

    # The engine applies the same rule under load: what it can check of it, as its options.
    def test_the_engine_is_given_the_same_rule_as_options
      assert_equal ["--expect-status", "200-399"], AnswerRule.new.engine_args(request)
      assert_equal ["--expect-status", "200", "--expect-body", "hello world"], catalogue.engine_args(request)
      assert_equal ["--expect-status", "201,204", "--expect-body", "made"],
                   catalogue.engine_args(request("expect_status" => [201, 204], "expect_body" => "made"))
      assert_equal ["--expect-status", "200-299"], AnswerRule.new.engine_args(request("expect_status" => (200..299)))
      assert_equal ["--expect-status", "200-399", "--expect-body", "x"], AnswerRule.new.engine_args(request("expect_body" => "x"))
      assert_equal ["--expect-status", "200-399"], catalogue.engine_args(request("path" => "/users/1"))
    end

    # A pattern, a page check, a body longer than the engine searches, or one
    # request's several paths (ids): the engine checks the status, the verify
    # step the rest.
    def test_what_the_engine_cannot_check_stays_with_the_verify_step
      pattern = Apps.endpoints.find { |e| Apps::Expectation.at(e, e.sample)&.body.is_a?(Regexp) }
      skip "no catalogue endpoint answers a pattern" unless pattern
      assert_equal ["--expect-status", "200"], catalogue.engine_args(request("path" => pattern.sample))
      ids = Request.new("path" => "/fibonacci/:id", "ids" => [20, 25])
      assert_equal ["--expect-status", "200"], catalogue.engine_args(ids)
    end

    def test_a_wrong_answer_shows_the_start_of_its_body
      problem = AnswerRule.new.problems(request, 500, {}, "x" * 1000).first
      assert_includes problem, "x" * AnswerRule::EXCERPT_BYTES
      refute_includes problem, "x" * (AnswerRule::EXCERPT_BYTES + 1)
    end
  end
end
