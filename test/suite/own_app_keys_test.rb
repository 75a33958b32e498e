# frozen_string_literal: true

require "test_helper"
require "yaml"

module Rackbench
  # The suite keys of a user's own app: env:, setup:, ready_path:, real
  # requests on endpoints, and mix:. Bad values name file, line and key.
  class OwnAppKeysTest < Minitest::Test
    def load_suite(extra)
      path = File.join(tmpdir, "suite.yml")
      File.write(path, suite_yaml({ "engine" => "native" }.merge(extra)))
      [Suite.load(path), path]
    end

    def assert_rejected(extra, key, message)
      error = assert_raises(ConfigError) { load_suite(extra) }
      assert_match(/suite\.yml:\d+: #{Regexp.escape(key)} /, error.message)
      assert_includes error.message, message
    end

    def test_an_env_file_beside_the_suite_gives_every_server_its_variables_and_env_adds_to_them
      File.write(File.join(tmpdir, "app.env"), "SECRET_KEY_BASE=abc123\nDATABASE_URL=postgres://app:pw@127.0.0.1/app\n")
      suite, = load_suite("env_file" => "app.env", "env" => { "RAILS_ENV" => "production", "THREADS" => 4 })
      assert_equal({ "SECRET_KEY_BASE" => "abc123", "DATABASE_URL" => "postgres://app:pw@127.0.0.1/app",
                     "RAILS_ENV" => "production", "THREADS" => "4" }, suite.env)
      refute suite.data.to_s.include?("abc123"), "the file's values are never part of the suite's data"
    end

    def test_a_bad_env_file_or_public_env_names_its_line_and_key
      assert_rejected({ "env_file" => "missing.env" }, "env_file", "missing.env: No such file or directory")
      File.write(File.join(tmpdir, "bad.env"), "A=1\noops\n")
      assert_rejected({ "env_file" => "bad.env" }, "env_file", "bad.env:2: expected NAME=VALUE")
      File.write(File.join(tmpdir, "app.env"), "SECRET_KEY_BASE=abc\n")
      assert_rejected({ "env_file" => "app.env", "env" => { "SECRET_KEY_BASE" => "x" } }, "env.SECRET_KEY_BASE",
                      "is also set in env_file app.env: keep one")
      assert_rejected({ "public_env" => ["API KEY"] }, "public_env.0", "must be an env name")
    end

    def test_bad_own_app_keys_name_their_line_and_key
      assert_rejected({ "env" => { "RAILS_ENV" => %w[a b] } }, "env.RAILS_ENV", "must be a string or number")
      assert_rejected({ "setup" => ["bin/rails db:prepare", 3] }, "setup.1", "must be a command")
      assert_rejected({ "ready_path" => "up" }, "ready_path", "must be a path starting with /")
      assert_rejected({ "endpoints" => [{ "path" => "/items", "method" => "post" }] }, "endpoints.0.method", "HTTP method")
      assert_rejected({ "endpoints" => [{ "path" => "/items", "json" => {}, "body" => "x" }] },
                      "endpoints.0.json", "one of body, json or form")
      assert_rejected({ "endpoints" => [{ "path" => "/items", "ids" => [1] }] }, "endpoints.0.ids", "path with :id")
      assert_rejected({ "mix" => [{ "endpoint" => "/nope", "weight" => 1 }] }, "mix.0", "one of the suite's endpoints")
      assert_rejected({ "mix" => [{ "endpoint" => "/hello", "weight" => 0.5 }] }, "mix.0", "whole number > 0")
      assert_rejected({ "servers" => [{ "server" => "puma", "env" => { "MAX_THREADS" => nil } }] }, "servers.0.env",
                      '"env" must map names to strings or numbers')
      assert_rejected({ "reset" => ["bin/rails db:reset", ""] }, "reset.1", "must be a command")
      assert_rejected({ "reset_each" => "request" }, "reset_each", "must be one of start, window")
      assert_rejected({ "depends_on" => [{ "name" => "postgres" }] }, "depends_on.0",
                      "needs one of port, pid_file, command to find the process")
      assert_rejected({ "servers" => [{ "server" => "puma", "setup" => "bin/warm" }] }, "servers.0.setup",
                      '"setup" must be a list of commands')
    end

    def test_a_mix_is_one_more_endpoint_with_its_members_and_weights
      suite, = load_suite("endpoints" => ["/hello", { "name" => "create", "path" => "/items", "method" => "POST" }],
                          "mix" => [{ "endpoint" => "/hello", "weight" => 9 }, { "endpoint" => "create", "weight" => 1 }])
      mix = suite.endpoints.last
      assert_equal "mix", mix["name"]
      assert_equal(%w[/hello create], mix["mix"].map { |m| m["endpoint"]["name"] })
      assert_equal 3 * suite["concurrency"].size, Plan.new(suite).size
      args = Traffic.new(mix).engine_args
      assert_equal ["--endpoint", "/hello", "--weight", "9", "--path", "/hello",
                    "--endpoint", "create", "--weight", "1", "--method", "POST", "--path", "/items"], args
    end

    def test_a_request_carries_its_method_headers_json_body_and_ids
      request = Request.new("path" => "/items/:id", "ids" => [1, "a b"], "method" => "PUT", "json" => { "n" => 1 },
                            "headers" => { "Cookie" => "s=1" }, "expect_status" => [200, 204])
      assert_equal ["/items/1", "/items/a+b"], request.paths
      assert_equal "PUT /items/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nCookie: s=1\r\n" \
                   "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"n\":1}", request.bytes
      assert_equal ["--method", "PUT", "--header", "Cookie: s=1", "--header", "Content-Type: application/json",
                    "--body", "{\"n\":1}", "--path", "/items/1", "--path", "/items/a+b"], request.engine_args
      assert_equal ["--expect-status", "200,204"], AnswerRule.new.engine_args(request), "its check: the AnswerRule's"
      form = Request.new("path" => "/login", "method" => "POST", "form" => { "user" => "a&b" })
      assert_equal "user=a%26b", form.body
    end

    def test_each_engine_sends_what_it_can_and_names_what_it_cannot
      post = Traffic.new("name" => "create", "path" => "/items", "method" => "POST", "json" => {})
      ids = Traffic.new("path" => "/items/:id", "ids" => [1, 2])
      patch = Traffic.new("path" => "/items", "method" => "PATCH", "body" => "x")
      load = ->(traffic) { Engines::Load.new(target: Target.tcp(9292, "/items"), concurrency: 1, traffic: traffic) }
      [post, ids, patch].each do |t|
        assert Engines.fetch("native").new.validate!(load.call(t))
        assert Engines.fetch("wrk").new.validate!(load.call(t))
      end
      assert Engines.fetch("ab").new.validate!(load.call(post))
      assert_match(/ids need engine: native or wrk/, assert_raises(ConfigError) do
        Engines.fetch("ab").new.validate!(load.call(ids))
      end.message)
      assert_match(/PATCH with a body/, assert_raises(ConfigError) do
        Engines.fetch("ab").new.validate!(load.call(patch))
      end.message)
      checked = Traffic.new("path" => "/", "expect_body" => "ok", "expect_status" => 200)
      plain = Engines::Load.new(target: Target.tcp(9292, "/"), concurrency: 1, traffic: checked)
      assert Engines.fetch("wrk").new.validate!(plain), "checks stay with the verify step on wrk"
      assert_rejected({ "engine" => "ab", "endpoints" => [{ "path" => "/items/:id", "ids" => [1, 2] }] },
                      "endpoints.0", "ids need engine: native or wrk")
      assert_rejected({ "engine" => "wrk", "mix" => [{ "endpoint" => "/hello", "weight" => 1 }] }, "mix", "needs engine: native")
    end

    def test_wrk_gets_the_request_as_lua_and_ab_as_options
      request = Request.new("path" => "/items/:id", "ids" => [1, 2], "method" => "PUT", "body" => "a\"b\n")
      Engines.fetch("wrk") # loads wrk.rb and its WrkRequest
      lua = Engines::WrkRequest.lua(request)
      assert_includes lua, 'wrk.method = "PUT"'
      assert_includes lua, 'wrk.body = "a\\034b\\010"'
      assert_includes lua, 'local rackbench_paths = {"/items/1", "/items/2"}'
      post = Request.new("path" => "/items", "method" => "POST", "json" => { "n" => 1 }, "headers" => { "Cookie" => "s=1" })
      args = Engines.fetch("ab").new.request_args(post, tmpdir)
      assert_equal ["-H", "Cookie: s=1", "-p", File.join(tmpdir, "ab-body"), "-T", "application/json"], args
      assert_equal '{"n":1}', File.read(File.join(tmpdir, "ab-body"))
    end
  end
end
