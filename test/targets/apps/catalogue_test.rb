# frozen_string_literal: true

require "test_helper"
require "rack"
require "rack/lint"
require "rack/mock"
require "zlib"
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

    def test_a_size_endpoint_wants_exactly_its_bytes_and_says_where_they_differ
      octets = { "content-type" => "application/octet-stream" }
      expected = Random.new(Workloads::Bodies::SEED).bytes(1_048_576)
      assert_empty expect("/bytes/1048576").problems(200, octets, expected.dup)
      assert_equal ["body is 1048575 bytes, expected 1048576"], expect("/bytes/1048576").problems(200, octets, expected[0..-2])
      changed = expected.dup.tap { |b| b.setbyte(70_000, (b.getbyte(70_000) + 1) % 256) }
      assert_equal ["body differs from the expected bytes at byte 70000"], expect("/file/1048576").problems(200, octets, changed)
    end

    def test_the_compressible_body_compresses_and_the_random_one_does_not
      compressible = Workloads::Bodies.compressible(1_048_576)
      random = Workloads::Bodies.random(1_048_576)
      assert_equal [1_048_576, 1_048_576], [compressible.bytesize, random.bytesize]
      assert_operator Zlib.gzip(compressible).bytesize * 10, :<, compressible.bytesize
      assert_operator Zlib.gzip(random).bytesize, :>, random.bytesize
      assert_equal "received 3 bytes", Workloads::Bodies.received(StringIO.new("abc"))
    end

    def test_a_size_above_the_limit_is_refused
      assert_raises(Workloads::Bodies::TooLarge) { Workloads::Bodies.random(Workloads::Bodies::MAX_BYTES + 1) }
    end

    def test_an_uploads_sample_carries_the_bytes_its_path_names
      sample = Apps.endpoints.find { |e| e.name == "upload" }.sample_request
      assert_equal "POST", sample["method"]
      assert_equal sample["path"][/\d+/].to_i, sample["body"].bytesize
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
    # Each app loaded once per process (Roda's class is frozen once loaded).
    def self.parsed = @parsed ||= {}
    def parsed(name) = self.class.parsed[name] ||= Array(Rack::Builder.parse_file(Apps.path(name))).first

    LINT_PATHS = %w[/hello /sleep/1 /fibonacci/12 /primes/100 /primes/100?cache=1 /template-render /sleep-render/1 /static
                    /bytes/1024 /bytes/1048576 /compressible/65536 /file/1024 /file/1048576].freeze

    %w[rack sinatra roda].each do |name|
      define_method("test_#{name}_passes_rack_lint_and_the_catalogue_on_every_local_endpoint") do
        request = Rack::MockRequest.new(Rack::Lint.new(parsed(name)))
        LINT_PATHS.each do |path|
          response = request.get(path)
          assert_empty Apps.expectation(name, path).problems(response.status, response.headers, response.body), "#{name} #{path}"
        end
      end

      define_method("test_#{name}_counts_every_byte_of_an_upload_and_refuses_a_get_of_it") do
        request = Rack::MockRequest.new(Rack::Lint.new(parsed(name)))
        response = request.post("/upload/70000", input: "u" * 70_000, "CONTENT_TYPE" => "application/octet-stream")
        assert_empty Apps.expectation(name, "/upload/70000").problems(response.status, response.headers, response.body)
        short = request.post("/upload/70000", input: "u" * 69_999, "CONTENT_TYPE" => "application/octet-stream")
        assert_equal "received 69999 bytes", short.body
        refute_equal 200, request.get("/upload/70000").status, "#{name}: an upload is a POST"
      end

      define_method("test_#{name}_hands_a_file_to_a_proxy_when_told_to_by_x_sendfile") do
        request = Rack::MockRequest.new(Rack::Lint.new(parsed(name)))
        response = request.get("/file/4096", "sendfile.type" => "X-Sendfile") # what RACKBENCH_SENDFILE sets
        assert_equal [200, 0], [response.status, response.body.bytesize], "the proxy sends the bytes"
        assert File.binread(response.headers["x-sendfile"]) == Random.new(Workloads::Bodies::SEED).bytes(4096),
               "x-sendfile names the file of the expected bytes"
        assert_equal 4096, request.get("/file/4096").body.bytesize, "without it the app sends the file itself"
      end
    end
  end
end
