# frozen_string_literal: true

require "test_helper"
require "rack"
require "rack/lint"
require "rack/mock"
require File.join(Rackbench::ROOT, "apps", "shared", "catalogue") # Workloads, as Apps loads it

module Rackbench
  # The catalogue of the bundled apps' endpoints and the answers it expects.
  class CatalogueTest < Minitest::Test
    def expect(path, app: "rack", env: {}) = Apps.expectation(app, path, env)

    def test_the_bundled_apps_are_the_folders_with_a_config_ru
      assert_equal %w[rack rails roda sinatra], Apps.names
      refute Apps.bundled?("shared"), "apps/shared holds the common work, not an app"
      assert_raises(ConfigError) { Apps.path("django") }
    end

    def test_each_endpoint_computes_the_answer_for_the_path_asked
      assert_equal "slept 250 ms", expect("/sleep/250").body
      assert_equal "fibonacci(30) = 832040", expect("/fibonacci/30").body
      assert_equal "sum of primes up to 10 = 17", expect("/primes/10?cache=1").body
      assert_equal "sum of primes up to 10000 = 5736396", expect("/primes/10000").body
      assert_equal 2495, expect("/static").body.bytesize
    end

    def test_an_entrys_route_matches_its_paths_and_hands_over_whole_numbers
      sleep = Workloads.endpoint("sleep")
      assert_equal ["20"], sleep.match("/sleep/20")
      assert_nil sleep.match("/sleep/x")
      assert_equal [], Workloads.endpoint("hello").match("/hello")
      assert_nil Workloads.endpoint("hello").match("/hello/")
      assert_equal ["sleep", Integer], sleep.segments
      assert_equal "slept 0 ms", sleep.call(["0"])
    end

    def test_paths_outside_the_catalogue_or_apps_not_bundled_have_no_expectation
      assert_nil expect("/users/1")
      assert_nil expect("/sleep/abc")
      assert_nil Apps.expectation("config/my_app.ru", "/hello")
    end

    def test_a_right_answer_has_no_problems_and_a_wrong_one_names_each
      plain = { "content-type" => "text/plain; charset=utf-8" }
      assert_empty expect("/hello").problems(200, plain, "hello world")
      problems = expect("/hello").problems(500, { "content-type" => "text/html" }, "hello")
      assert_equal ["status 500, expected 200", "content type \"text/html\", expected \"text/plain\"",
                    "body \"hello\", expected \"hello world\""], problems
    end

    def test_db_expects_the_database_the_app_was_given
      answer = "db postgresql: updated row 3, read 10 rows"
      plain = { "content-type" => "text/plain" }
      assert_empty expect("/db", env: { "RACKBENCH_DATABASE_URL" => "postgresql://x" }).problems(200, plain, answer)
      refute_empty expect("/db").problems(200, plain, answer), "without a database service /db is SQLite"
    end

    def test_the_page_is_checked_for_its_structure
      page = expect("/template-render")
      html = { "content-type" => "text/html" }
      rows = Array.new(100) { |i| %(<tr class="odd" id="item-#{i}">#{"x" * 120}</tr>\n) }.join
      assert_empty page.problems(200, html, "<h1>Catalogue</h1>\n#{rows}</html>\n")
      assert_includes page.problems(200, html, "<h1>Catalogue</h1>\n#{rows.lines.first(99).join}</html>"),
                      "page has 99 item rows, expected 100"
    end

    # Rack::Lint in-process, for the endpoints that need no service (Rails is
    # checked on a real server in verify_test.rb, not loaded into the tests).
    LINT_PATHS = %w[/hello /sleep/1 /fibonacci/12 /primes/100 /primes/100?cache=1 /template-render /sleep-render/1 /static].freeze

    %w[rack sinatra roda].each do |name|
      define_method("test_#{name}_passes_rack_lint_and_the_catalogue_on_every_local_endpoint") do
        app, = Rack::Builder.parse_file(Apps.path(name))
        request = Rack::MockRequest.new(Rack::Lint.new(app))
        LINT_PATHS.each do |path|
          response = request.get(path)
          assert_empty Apps.expectation(name, path).problems(response.status, response.headers, response.body), "#{name} #{path}"
        end
      end
    end
  end
end
