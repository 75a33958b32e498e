# frozen_string_literal: true

require "prime"
require_relative "workloads"
require_relative "endpoint"
require_relative "body_checks"

# The one list of the bundled apps' endpoints. Each entry is the endpoint's
# route, its handler (the work, from workloads.rb) and the answer rackbench
# expects of it; the four apps mount every entry (apps/*/config.ru, Rails'
# routes.rb) and rackbench's checks read the same entries
# (Rackbench::Apps.endpoints: `rackbench verify`, each run's first answer).
# Adding an endpoint is adding its entry here.
#
#   route    "/sleep/:ms": each :param a whole number, handed to the handler as an Integer
#   kind     :plain (the handler returns the body, text/plain), :page (the
#            locals of views/page.html.erb, text/html), :file (a file of
#            PUBLIC_DIR named like the route, text/html), :html (the body,
#            text/html), :bytes (the body, application/octet-stream) or
#            :sendfile (the path of a file the app serves as a file, so a
#            proxy that asks for X-Sendfile or X-Accel-Redirect sends it itself)
#   handler  ->(*params, query) { ... }, query: the query string's parameters ({"cache" => "1"});
#            an upload's (http_method: "POST") gets the request body too: ->(*params, query, input)
#   services the services it needs (["upstream"]), when it needs any
#   expected ->(params, env) { ... }: the body a right answer has, computed apart
#            from the handler so that a wrong handler fails the check: a String
#            (the body equals it), a Regexp (it matches) or a Proc listing a
#            body's problems; env is the environment the app got
#
# Ruby 2.6 syntax (no endless methods): JRuby 9.3's apps load it too.
module Workloads
  module_function

  # The entries, in the order `rackbench verify` checks them.
  def catalogue
    CATALOGUE
  end

  # The entry called name.
  def endpoint(name)
    CATALOGUE.find { |e| e.name == name } || raise(KeyError, "no endpoint #{name.inspect} in the catalogue")
  end

  # fib(n), computed by iteration: the check of the handler's recursion.
  def expected_fibonacci(number)
    a = 0
    b = 1
    number.times { a, b = b, a + b }
    a
  end

  PAGE_BYTES = (10_000..20_000)

  # A check of a page's structure: its title, its row count, its size, and well closed.
  def page_check(title, rows, first_item: nil)
    lambda do |body|
      found = []
      found << "page has no <h1>#{title}</h1>" unless body.include?("<h1>#{title}</h1>")
      count = body.scan(/<tr class="(?:odd|even)" id="item-\d+">/).size
      found << "page has #{count} item rows, expected #{rows}" unless rows === count # rubocop:disable Style/CaseEquality
      found << "page is #{body.bytesize} bytes, expected #{PAGE_BYTES}" if rows == PAGE_ROWS && !PAGE_BYTES.cover?(body.bytesize)
      found << "page has no #{first_item.inspect}" if first_item && !body.include?(first_item)
      found << "page does not end with </html>" unless body.rstrip.end_with?("</html>")
      found
    end
  end

  CATALOGUE = [
    Endpoint.new(name: "hello", route: "/hello", kind: :plain, sample: "/hello", purpose: "raw request overhead (000)",
                 handler: ->(_query) { hello },
                 expected: ->(_params, _env) { "hello world" }),
    Endpoint.new(name: "sleep", route: "/sleep/:ms", kind: :plain, sample: "/sleep/20",
                 purpose: "a wait on IO: sleeps ms (000, 003)",
                 handler: ->(ms, _query) { pause(ms) },
                 expected: ->(params, _env) { "slept #{params[0]} ms" }),
    Endpoint.new(name: "fibonacci", route: "/fibonacci/:n", kind: :plain, sample: "/fibonacci/20",
                 purpose: "CPU work: fib(n), recursively (000, 003)",
                 handler: ->(n, _query) { fibonacci_answer(n) },
                 expected: ->(params, _env) { "fibonacci(#{params[0]}) = #{expected_fibonacci(params[0])}" }),
    Endpoint.new(name: "primes", route: "/primes/:n", kind: :plain, sample: "/primes/10000?cache=1",
                 purpose: "CPU work with an optional in-process cache, ?cache=1 (002)",
                 handler: ->(n, query) { primes_answer(n, query["cache"] == "1") },
                 expected: ->(params, _env) { "sum of primes up to #{params[0]} = #{Prime.each(params[0]).sum}" }),
    Endpoint.new(name: "template-render", route: "/template-render", kind: :page, sample: "/template-render",
                 purpose: "ERB through the framework's views, #{PAGE_BYTES} bytes (003)",
                 handler: ->(_query) { page_locals },
                 expected: ->(_params, _env) { page_check("Catalogue", PAGE_ROWS) }),
    Endpoint.new(name: "sleep-render", route: "/sleep-render/:ms", kind: :page, sample: "/sleep-render/20",
                 purpose: "a wait, then the page: IO and CPU (003)",
                 handler: lambda { |ms, _query|
                   locals = page_locals(slept_ms: ms)
                   pause(ms)
                   locals
                 },
                 expected: ->(params, _env) { page_check("Catalogue (slept #{params[0]} ms)", PAGE_ROWS) }),
    Endpoint.new(name: "network-io", route: "/network-io", kind: :plain, sample: "/network-io", services: ["upstream"],
                 purpose: "a GET to the upstream service (003)",
                 handler: ->(_query) { network_io },
                 expected: ->(_params, _env) { /\Afetched [1-9]\d* bytes from upstream in \d+ ms\z/ }),
    Endpoint.new(name: "network-io-render", route: "/network-io-render", kind: :page, sample: "/network-io-render",
                 services: ["upstream"], purpose: "a GET to the upstream service, its items rendered (003)",
                 handler: ->(_query) { page_locals(upstream_html: Upstream.fetch) },
                 expected: lambda { |_params, _env|
                   page_check("Catalogue from upstream", 1..PAGE_ROWS, first_item: "upstream item 1")
                 }),
    Endpoint.new(name: "db", route: "/db", kind: :plain, sample: "/db",
                 purpose: "a write and a read of a real database: SQLite, or the postgres service",
                 handler: ->(_query) { Database.visit },
                 expected: lambda { |_params, env|
                   /\Adb #{env["RACKBENCH_DATABASE_URL"] ? "postgresql" : "sqlite"}: updated row \d+, read 10 rows\z/
                 }),
    Endpoint.new(name: "cache", route: "/cache", kind: :plain, sample: "/cache", services: ["memcached"],
                 purpose: "a get, and a set on a miss, through the memcached service",
                 handler: ->(_query) { Cache.visit },
                 expected: ->(_params, _env) { /\Acache memcached: (hit|miss) item \d+ \(1024 bytes\)\z/ }),
    Endpoint.new(name: "static", route: "/static", kind: :file, sample: "/static", purpose: "a 2495-byte static page (004)",
                 handler: ->(_query) { STATIC_PAGE },
                 expected: ->(_params, _env) { File.read(STATIC_PAGE) }),
    Endpoint.new(name: "bytes", route: "/bytes/:n", kind: :bytes, sample: "/bytes/65536",
                 purpose: "a response of n bytes that gzip cannot shrink (1 KB, 64 KB, 1 MB; falcon #137 slowed above 16 KB)",
                 handler: ->(n, _query) { Bodies.random(n) },
                 expected: ->(params, _env) { exact_bytes(Random.new(Bodies::SEED).bytes(params[0])) }),
    Endpoint.new(name: "compressible", route: "/compressible/:n", kind: :html, sample: "/compressible/65536",
                 purpose: "n bytes of HTML table rows that gzip shrinks about twentyfold",
                 handler: ->(n, _query) { Bodies.compressible(n) },
                 expected: ->(params, _env) { exact_bytes(expected_compressible(params[0])) }),
    Endpoint.new(name: "file", route: "/file/:n", kind: :sendfile, sample: "/file/65536",
                 purpose: "a file of n random bytes, sent by the app or by the proxy (X-Sendfile, X-Accel-Redirect)",
                 handler: ->(n, _query) { Bodies.file(n) },
                 expected: ->(params, _env) { exact_bytes(Random.new(Bodies::SEED).bytes(params[0])) }),
    Endpoint.new(name: "upload", route: "/upload/:n", kind: :plain, sample: "/upload/65536", http_method: "POST",
                 purpose: "a request body of n bytes, read to its end and counted",
                 handler: ->(_n, _query, input) { Bodies.received(input) },
                 expected: ->(params, _env) { "received #{params[0]} bytes" })
  ].freeze
end
