# frozen_string_literal: true

# The bundled Roda workload app: the endpoints of apps/shared/workloads.rb in
# a routing tree, the page through Roda's render plugin.
require "roda"
require_relative "../shared/workloads"

class RodaWorkloads < Roda
  plugin :render, views: Workloads::VIEWS_DIR, engine: "html.erb", layout: false
  plugin :sinatra_helpers # send_file
  plugin :error_handler
  plugin :not_found
  include ERB::Util

  PLAIN = "text/plain"
  HTML = "text/html"

  error do |e|
    raise e unless e.is_a?(Workloads::Upstream::Unavailable) || e.is_a?(Workloads::Cache::Unavailable)

    response.status = 503
    plain(e.message)
  end

  not_found { plain("not found") }

  route do |r|
    r.get("hello") { plain(Workloads.hello) }
    r.get("sleep", Integer) { |ms| plain(Workloads.pause(ms)) }
    r.get("fibonacci", Integer) { |n| plain(Workloads.fibonacci_answer(n)) }
    r.get("primes", Integer) { |n| plain(Workloads.primes_answer(n, r.params["cache"] == "1")) }
    r.get("template-render") { page(Workloads.page_locals) }
    r.get("network-io") { plain(Workloads.network_io) }
    r.get("network-io-render") { page(Workloads.page_locals(upstream_html: Workloads::Upstream.fetch)) }
    r.get("db") { plain(Workloads::Database.visit) }
    r.get("cache") { plain(Workloads::Cache.visit) }
    r.get("static") { send_file(Workloads::STATIC_PAGE, type: HTML) }

    r.get("sleep-render", Integer) do |ms|
      locals = Workloads.page_locals(slept_ms: ms)
      Workloads.pause(ms)
      page(locals)
    end
  end

  def plain(text)
    response["content-type"] = PLAIN
    text
  end

  def page(locals)
    response["content-type"] = HTML
    render("page", locals: locals)
  end
end

run RodaWorkloads.freeze.app
