# frozen_string_literal: true

require "prime"

module Rackbench
  # The bundled workload apps under apps/ (rack, sinatra, roda, rails: one
  # folder each with a config.ru) and the catalogue of their endpoints, the
  # same in every framework, with the answer each must give. The Runner checks
  # each cell's first answer against it (Apps.expectation) and
  # `rackbench verify` checks every endpoint (Apps::Verification).
  #
  #   Apps.names                             # => ["rack", "rails", "roda", "sinatra"]
  #   Apps.expectation("roda", "/sleep/50")  # => Expectation: 200 text/plain "slept 50 ms"
  module Apps
    DIR = File.join(ROOT, "apps")
    STATIC_PAGE = File.join(DIR, "shared", "public", "static.html")
    PAGE_ROWS = 100
    PAGE_BYTES = (10_000..20_000)
    SQLITE_ENV = "RACKBENCH_SQLITE_PATH"
    DATABASE_ENV = "RACKBENCH_DATABASE_URL"

    autoload :Endpoint, "rackbench/targets/apps/endpoint"
    autoload :Expectation, "rackbench/targets/apps/endpoint"
    autoload :Verification, "rackbench/targets/apps/verification"

    def self.names
      Dir[File.join(DIR, "*", "config.ru")].map { |f| File.basename(File.dirname(f)) }.sort
    end

    def self.bundled?(name) = names.include?(name.to_s)

    def self.path(name)
      raise ConfigError, "no bundled app #{name.inspect}; bundled apps: #{names.join(", ")}" unless bundled?(name)

      File.join(DIR, name.to_s, "config.ru")
    end

    # The environment every bundled app gets: where /db keeps its SQLite file
    # when the suite names no database service.
    def self.default_env(dir) = { SQLITE_ENV => File.join(dir, "app.sqlite3") }

    # What app must answer at path (its query string included), or nil when
    # the app is not bundled or the path is none of the catalogue's. env is the
    # environment the app got (it tells which database /db uses).
    def self.expectation(app, path, env = {})
      return nil unless bundled?(app)

      endpoints.each do |endpoint|
        expectation = endpoint.expectation(path, env)
        return expectation if expectation
      end
      nil
    end

    def self.endpoints = @endpoints ||= catalogue.freeze

    def self.catalogue # rubocop:disable Metrics/MethodLength
      plain = "text/plain"
      html = "text/html"
      [
        Endpoint.new("hello", pattern: %r{\A/hello\z}, sample: "/hello", content_type: plain,
                              purpose: "raw request overhead (000)") { "hello world" },
        Endpoint.new("sleep", pattern: %r{\A/sleep/(\d+)\z}, sample: "/sleep/20", content_type: plain,
                              purpose: "a wait on IO: sleeps ms (000, 003)") { |m| "slept #{m[1].to_i} ms" },
        Endpoint.new("fibonacci", pattern: %r{\A/fibonacci/(\d+)\z}, sample: "/fibonacci/20", content_type: plain,
                                  purpose: "CPU work: fib(n), recursively (000, 003)") do |m|
          "fibonacci(#{m[1].to_i}) = #{fibonacci(m[1].to_i)}"
        end,
        Endpoint.new("primes", pattern: %r{\A/primes/(\d+)\z}, sample: "/primes/10000?cache=1", content_type: plain,
                               purpose: "CPU work with an optional in-process cache, ?cache=1 (002)") do |m|
          "sum of primes up to #{m[1].to_i} = #{prime_sum(m[1].to_i)}"
        end,
        Endpoint.new("template-render", pattern: %r{\A/template-render\z}, sample: "/template-render", content_type: html,
                                        purpose: "ERB through the framework's views, #{PAGE_BYTES} bytes (003)") do
          page_check("Catalogue", PAGE_ROWS)
        end,
        Endpoint.new("sleep-render", pattern: %r{\A/sleep-render/(\d+)\z}, sample: "/sleep-render/20", content_type: html,
                                     purpose: "a wait, then the page: IO and CPU (003)") do |m|
          page_check("Catalogue (slept #{m[1].to_i} ms)", PAGE_ROWS)
        end,
        Endpoint.new("network-io", pattern: %r{\A/network-io\z}, sample: "/network-io", content_type: plain,
                                   services: ["upstream"], purpose: "a GET to the upstream service (003)") do
          /\Afetched [1-9]\d* bytes from upstream in \d+ ms\z/
        end,
        Endpoint.new("network-io-render", pattern: %r{\A/network-io-render\z}, sample: "/network-io-render",
                                          content_type: html, services: ["upstream"],
                                          purpose: "a GET to the upstream service, its items rendered (003)") do
          page_check("Catalogue from upstream", 1..PAGE_ROWS, first_item: "upstream item 1")
        end,
        Endpoint.new("db", pattern: %r{\A/db\z}, sample: "/db", content_type: plain,
                           purpose: "a write and a read of a real database: SQLite, or the postgres service") do |_m, _q, env|
          kind = env[DATABASE_ENV] ? "postgresql" : "sqlite"
          /\Adb #{kind}: updated row \d+, read 10 rows\z/
        end,
        Endpoint.new("cache", pattern: %r{\A/cache\z}, sample: "/cache", content_type: plain, services: ["memcached"],
                              purpose: "a get, and a set on a miss, through the memcached service") do
          /\Acache memcached: (hit|miss) item \d+ \(1024 bytes\)\z/
        end,
        Endpoint.new("static", pattern: %r{\A/static\z}, sample: "/static", content_type: html,
                               purpose: "a 2495-byte static page (004)") { File.read(STATIC_PAGE) }
      ]
    end

    def self.fibonacci(number)
      a = 0
      b = 1
      number.times { a, b = b, a + b }
      a
    end

    def self.prime_sum(limit) = (@prime_sums ||= {})[limit] ||= Prime.each(limit).sum

    # The page's structure: its title, its row count, its size, and well closed.
    def self.page_check(title, rows, first_item: nil)
      lambda do |body|
        found = []
        found << "page has no <h1>#{title}</h1>" unless body.include?("<h1>#{title}</h1>")
        count = body.scan(/<tr class="(?:odd|even)" id="item-\d+">/).size
        found << "page has #{count} item rows, expected #{rows}" unless rows === count # rubocop:disable Style/CaseEquality
        if rows == PAGE_ROWS && !PAGE_BYTES.cover?(body.bytesize)
          found << "page is #{body.bytesize} bytes, expected #{PAGE_BYTES}"
        end
        found << "page has no #{first_item.inspect}" if first_item && !body.include?(first_item)
        found << "page does not end with </html>" unless body.rstrip.end_with?("</html>")
        found
      end
    end
  end
end
