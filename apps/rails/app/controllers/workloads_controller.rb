# frozen_string_literal: true

# Every workload endpoint of the Rails app; the work is apps/shared/workloads.rb.
# Ruby 2.6 syntax (no endless defs): JRuby 9.3's Rails 6.1 loads it too.
class WorkloadsController < ActionController::Base
  rescue_from Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable do |e|
    render plain: e.message, status: :service_unavailable
  end

  def hello
    render(plain: Workloads.hello)
  end

  def pause
    render(plain: Workloads.pause(params[:ms].to_i))
  end

  def fibonacci
    render(plain: Workloads.fibonacci_answer(params[:n].to_i))
  end

  def primes
    render(plain: Workloads.primes_answer(params[:n].to_i, params[:cache] == "1"))
  end

  def template_render
    page(Workloads.page_locals)
  end

  def network_io
    render(plain: Workloads.network_io)
  end

  def network_io_render
    page(Workloads.page_locals(upstream_html: Workloads::Upstream.fetch))
  end

  def db
    render(plain: Workloads::Database.visit)
  end

  def cache
    render(plain: Workloads::Cache.visit)
  end

  def sleep_render
    ms = params[:ms].to_i
    locals = Workloads.page_locals(slept_ms: ms)
    Workloads.pause(ms)
    page(locals)
  end

  private

  def page(locals)
    render template: "page", locals: locals, layout: false
  end
end
