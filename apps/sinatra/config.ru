# frozen_string_literal: true

# The bundled Sinatra workload app: each endpoint of apps/shared/catalogue.rb
# as a Sinatra route, the page through Sinatra's erb.
require "sinatra/base"
require_relative "../shared/catalogue"

class SinatraWorkloads < Sinatra::Base
  set :views, Workloads::VIEWS_DIR
  set :public_folder, Workloads::PUBLIC_DIR
  set :static, false # /static is a route of the catalogue; nothing else is served from disk
  set :show_exceptions, false
  helpers ERB::Util

  before { content_type :text }

  Workloads::CATALOGUE.each do |endpoint|
    send(endpoint.verb.downcase, endpoint.regexp) { |*args| respond(endpoint, endpoint.call(args, params, request.body)) }
  end

  error(Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable) do
    status 503
    env["sinatra.error"].message
  end

  not_found { "not found" }

  helpers do
    def respond(endpoint, result)
      case endpoint.kind
      when :plain then result
      when :page then page(result)
      when :html, :bytes
        content_type endpoint.content_type
        result
      when :sendfile then send_file(result, type: endpoint.content_type)
      else send_file(result, type: :html)
      end
    end

    def page(locals)
      content_type :html
      erb :page, locals: locals
    end
  end
end

# With RACKBENCH_SENDFILE=X-Sendfile (Thruster, lighttpd) or X-Accel-Redirect (nginx), a file
# answer carries the file's path for the proxy to send, not its bytes (Workloads::Bodies::SENDFILE_ENV).
use Rack::Sendfile, ENV.fetch("RACKBENCH_SENDFILE", nil)
run SinatraWorkloads
