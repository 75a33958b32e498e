# frozen_string_literal: true

# Every endpoint of the catalogue (apps/shared/catalogue.rb), named by its route's defaults.
# Ruby 2.6 syntax (no endless defs): JRuby 9.3's Rails 6.1 loads it too.
class WorkloadsController < ActionController::Base
  rescue_from Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable do |e|
    render plain: e.message, status: :service_unavailable
  end

  def serve
    endpoint = Workloads.endpoint(params[:endpoint])
    result = endpoint.call(endpoint.params.map { |param| params[param] }, request.query_parameters)
    endpoint.kind == :page ? page(result) : render(plain: result)
  end

  private

  def page(locals)
    render template: "page", locals: locals, layout: false
  end
end
