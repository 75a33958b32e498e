# frozen_string_literal: true

require "test_helper"

module Rackbench
  # An endpoint entry as a real request: its bytes on the wire, the engine's
  # options that send it on every request, and one clear problem for a bad entry.
  class RequestTest < Minitest::Test
    def test_a_json_post_carries_its_type_length_and_headers
      request = Request.new("name" => "create", "path" => "/items", "method" => "POST", "json" => { "name" => "x" },
                            "headers" => { Cookie: "session=abc" })
      head, body = request.bytes.split("\r\n\r\n", 2)
      assert_equal '{"name":"x"}', body
      assert_equal ["POST /items HTTP/1.1", "Host: localhost", "Connection: close", "Cookie: session=abc",
                    "Content-Type: application/json", "Content-Length: 12"], head.split("\r\n")
      refute request.plain_get?
    end

    def test_a_form_is_url_encoded
      request = Request.new("path" => "/login", "method" => "POST", "form" => { "user" => "a b", "pw" => "1&2" })
      assert_equal "user=a+b&pw=1%262", request.body
      assert_equal "application/x-www-form-urlencoded", request.headers["Content-Type"]
    end

    def test_ids_fill_the_path_in_turn_or_at_random_and_reach_the_engine
      request = Request.new("path" => "/items/:id", "ids" => [1, "a/b"], "ids_order" => "random", "expect_status" => [200, 201])
      assert_equal ["/items/1", "/items/a%2Fb"], request.paths
      assert_equal ["--path", "/items/1", "--path", "/items/a%2Fb", "--path-order", "random"], request.engine_args,
                   "the expected statuses reach the engine through the AnswerRule, not the request"
    end

    def test_a_plain_get_needs_no_engine_options
      request = Request.new("path" => "/hello")
      assert request.plain_get?
      assert_empty request.engine_args
      assert_equal "/hello", request.name
    end

    def test_each_bad_entry_gets_one_problem_that_names_what_to_write
      {
        { "path" => "/x", "body" => "a", "json" => {} } => "takes one of body, json or form, got body and json",
        { "path" => "/x", "method" => "post" } => "method must be an HTTP method such as POST, got \"post\"",
        { "path" => "/x", "ids" => [1] } => "ids need a path with :id, such as /items/:id",
        { "path" => "/x/:id", "ids" => [] } => "ids must be a non-empty list",
        { "path" => "/x/:id", "ids_order" => "random" } => "ids_order needs ids: [...]",
        { "path" => "/x", "form" => "a=b" } => "form must be a mapping of fields"
      }.each { |entry, problem| assert_equal problem, Request.problem(entry), entry.inspect }
      assert_nil Request.problem("/plain/path"), "a path alone is a GET"
    end
  end
end
