# frozen_string_literal: true

# The bundled Sinatra workload app: the endpoints of apps/shared/workloads.rb
# as Sinatra routes, the page through Sinatra's erb.
require "sinatra/base"
require_relative "../shared/workloads"

class SinatraWorkloads < Sinatra::Base
  set :views, Workloads::VIEWS_DIR
  set :public_folder, Workloads::PUBLIC_DIR
  set :static, false # /static is a route below; nothing else is served from disk
  set :show_exceptions, false
  helpers ERB::Util

  before { content_type :text }

  get("/hello") { Workloads.hello }
  get(%r{/sleep/(\d+)}) { |ms| Workloads.pause(ms.to_i) }
  get(%r{/fibonacci/(\d+)}) { |n| Workloads.fibonacci_answer(n.to_i) }
  get(%r{/primes/(\d+)}) { |n| Workloads.primes_answer(n.to_i, params["cache"] == "1") }
  get("/template-render") { page(Workloads.page_locals) }
  get("/network-io") { Workloads.network_io }
  get("/network-io-render") { page(Workloads.page_locals(upstream_html: Workloads::Upstream.fetch)) }
  get("/db") { Workloads::Database.visit }
  get("/cache") { Workloads::Cache.visit }
  get("/static") { send_file Workloads::STATIC_PAGE, type: :html }

  get(%r{/sleep-render/(\d+)}) do |ms|
    locals = Workloads.page_locals(slept_ms: ms.to_i)
    Workloads.pause(ms.to_i)
    page(locals)
  end

  error(Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable) do
    status 503
    env["sinatra.error"].message
  end

  not_found { "not found" }

  helpers do
    def page(locals)
      content_type :html
      erb :page, locals: locals
    end
  end
end

run SinatraWorkloads
