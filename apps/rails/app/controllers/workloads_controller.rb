# frozen_string_literal: true

# Every endpoint of the catalogue (apps/shared/catalogue.rb), named by its route's defaults.
# Ruby 2.6 syntax (no endless defs): JRuby 9.3's Rails 6.1 loads it too.
class WorkloadsController < ActionController::Base
  rescue_from Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable do |e|
    render plain: e.message, status: :service_unavailable
  end

  # An upload comes without a form's authenticity token, as an API's does.
  skip_forgery_protection

  def serve
    endpoint = Workloads.endpoint(params[:endpoint])
    result = endpoint.call(endpoint.params.map { |param| params[param] }, request.query_parameters, request.body)
    case endpoint.kind
    when :page then page(result)
    when :html, :bytes then render(body: result, content_type: endpoint.content_type)
    when :sendfile then send_file(result, type: endpoint.content_type, disposition: "inline")
    else render(plain: result)
    end
  end

  private

  def page(locals)
    render template: "page", locals: locals, layout: false
  end
end
