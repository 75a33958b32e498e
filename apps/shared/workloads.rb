# frozen_string_literal: true

require "prime"
require "erb"

# The work behind the bundled apps' endpoints, shared by apps/{rack,sinatra,roda,rails}
# so that every framework does exactly the same work and gives the same answers;
# the frameworks differ only in routing, views and responses. The endpoints
# that call it, with their routes and expected answers, are catalogue.rb's
# entries, which each app mounts.
#
#   Workloads.fibonacci(25)                   # => 75025, computed recursively (CPU)
#   Workloads.prime_sum(10_000, cache: true)  # => 5736396, memoised per process
#   Workloads.page_items                      # the rows of views/page.html.erb
module Workloads
  ROOT = __dir__
  VIEWS_DIR = File.join(ROOT, "views")
  PUBLIC_DIR = File.join(ROOT, "public")
  STATIC_PAGE = File.join(PUBLIC_DIR, "static.html")
  PAGE_ROWS = 100
  CATEGORIES = %w[books music garden tools games kitchen].freeze

  autoload :Pool, File.join(ROOT, "workloads", "pool")
  autoload :Upstream, File.join(ROOT, "workloads", "upstream")
  autoload :Database, File.join(ROOT, "workloads", "database")
  autoload :Cache, File.join(ROOT, "workloads", "cache")
  autoload :Bodies, File.join(ROOT, "workloads", "bodies")

  @prime_sums = {}
  @prime_lock = Mutex.new

  module_function

  def fibonacci(number)
    number < 2 ? number : fibonacci(number - 1) + fibonacci(number - 2)
  end

  # Sum of the primes up to n (002_233cd323458ca8b1.txt); cache: true keeps
  # each n's answer in this process, as the article's ?cache=1 does.
  def prime_sum(limit, cache: false)
    return Prime.each(limit).sum unless cache

    @prime_lock.synchronize { @prime_sums[limit] } || Prime.each(limit).sum.tap do |sum|
      @prime_lock.synchronize { @prime_sums[limit] = sum }
    end
  end

  # The array of hashes the page template loops over: built anew for every
  # request, as 003_766978340d4031d9.txt's template-render does.
  def page_items(names = nil)
    names ||= Array.new(PAGE_ROWS) { |i| "Item #{i + 1}" }
    names.each_with_index.map do |name, i|
      {
        id: i + 1, name: name, category: CATEGORIES[i % CATEGORIES.size],
        price_cents: 199 + ((i * 7919) % 10_000), stock: (i * 37) % 11,
        tags: Array.new(1 + (i % 3)) { |t| "tag-#{(i + t) % 17}" }
      }
    end
  end

  # Rows for /network-io-render: the upstream page's list items as the data.
  def items_from_html(html)
    page_items(html.scan(%r{<li>([^<]*)</li>}).flatten.first(PAGE_ROWS))
  end

  def price(cents)
    format("%<units>d.%<cents>02d", units: cents / 100, cents: cents % 100)
  end

  def hello
    "hello world"
  end

  # Sleeps duration_ms and says so: the IO-wait workload (000, 003).
  def pause(duration_ms)
    sleep(duration_ms / 1000.0)
    "slept #{duration_ms} ms"
  end

  def fibonacci_answer(number)
    "fibonacci(#{number}) = #{fibonacci(number)}"
  end

  def primes_answer(limit, cache)
    "sum of primes up to #{limit} = #{prime_sum(limit, cache: cache)}"
  end

  # GET the upstream service; answers its size and how long it took.
  def network_io
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    body = Upstream.fetch
    took_ms = ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - started) * 1000).round
    "fetched #{body.bytesize} bytes from upstream in #{took_ms} ms"
  end

  def page_title(slept_ms: nil, upstream: false)
    return "Catalogue (slept #{slept_ms} ms)" if slept_ms
    return "Catalogue from upstream" if upstream

    "Catalogue"
  end

  # Locals of views/page.html.erb, the same in every framework.
  def page_locals(slept_ms: nil, upstream_html: nil)
    items = upstream_html ? items_from_html(upstream_html) : page_items
    { title: page_title(slept_ms: slept_ms, upstream: !upstream_html.nil?), items: items }
  end
end
