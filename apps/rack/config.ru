# frozen_string_literal: true

# The bundled plain-Rack workload app: rackup apps/rack/config.ru
# Routing by hand, views through ERB from the standard library: the smallest
# stack that does the work of apps/shared/workloads.rb.
require "rack/files"
require_relative "../shared/workloads"

# Routes each path to its workload.
class RackWorkloads
  # Renders apps/shared/views/page.html.erb, compiled once into a method.
  class Page
    include ERB::Util

    ERB.new(File.read(File.join(Workloads::VIEWS_DIR, "page.html.erb"))).def_method(self, "render_page")

    attr_reader :title, :items

    def initialize(title:, items:)
      @title = title
      @items = items
    end

    def self.render(locals)
      new(**locals).render_page
    end
  end

  PLAIN = { "content-type" => "text/plain" }.freeze
  HTML = { "content-type" => "text/html" }.freeze
  STATIC = Rack::Files.new(Workloads::PUBLIC_DIR)

  def call(env)
    route(env["PATH_INFO"], env)
  rescue Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable => e
    [503, PLAIN.dup, [e.message]]
  end

  private

  def route(path, env)
    case path
    when "/hello" then plain(Workloads.hello)
    when %r{\A/sleep/(\d+)\z} then plain(Workloads.pause(Regexp.last_match(1).to_i))
    when %r{\A/fibonacci/(\d+)\z} then plain(Workloads.fibonacci_answer(Regexp.last_match(1).to_i))
    when %r{\A/primes/(\d+)\z} then plain(Workloads.primes_answer(Regexp.last_match(1).to_i, cache?(env)))
    when "/template-render" then html(Workloads.page_locals)
    when %r{\A/sleep-render/(\d+)\z} then sleep_render(Regexp.last_match(1).to_i)
    when "/network-io" then plain(Workloads.network_io)
    when "/network-io-render" then html(Workloads.page_locals(upstream_html: Workloads::Upstream.fetch))
    when "/db" then plain(Workloads::Database.visit)
    when "/cache" then plain(Workloads::Cache.visit)
    when "/static" then STATIC.call(env.merge("PATH_INFO" => "/static.html"))
    else [404, PLAIN.dup, ["not found"]]
    end
  end

  def cache?(env)
    Rack::Utils.parse_query(env["QUERY_STRING"])["cache"] == "1"
  end

  def plain(text)
    [200, PLAIN.dup, [text]]
  end

  def html(locals)
    [200, HTML.dup, [Page.render(locals)]]
  end

  def sleep_render(duration_ms)
    locals = Workloads.page_locals(slept_ms: duration_ms)
    Workloads.pause(duration_ms)
    html(locals)
  end
end

run RackWorkloads.new
