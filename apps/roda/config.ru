# frozen_string_literal: true

# The bundled Roda workload app: each endpoint of apps/shared/catalogue.rb
# as a branch of the routing tree, the page through Roda's render plugin.
require "roda"
require_relative "../shared/catalogue"

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
    Workloads::CATALOGUE.each do |endpoint|
      r.public_send(endpoint.verb.downcase, *endpoint.segments) do |*args|
        respond(endpoint, endpoint.call(args, r.GET, r.body))
      end
    end
    nil # no branch matched: not_found answers
  end

  def respond(endpoint, result)
    case endpoint.kind
    when :plain then plain(result)
    when :page then page(result)
    when :html, :bytes
      response["content-type"] = endpoint.content_type
      result
    when :sendfile then send_file(result, type: endpoint.content_type)
    else send_file(result, type: HTML)
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

# With RACKBENCH_SENDFILE=X-Sendfile (Thruster, lighttpd) or X-Accel-Redirect (nginx), a file
# answer carries the file's path for the proxy to send, not its bytes (Workloads::Bodies::SENDFILE_ENV).
use Rack::Sendfile, ENV.fetch("RACKBENCH_SENDFILE", nil)
run RodaWorkloads.freeze.app
