# frozen_string_literal: true

# The bundled plain-Rack workload app: rackup apps/rack/config.ru
# Routing by hand over the catalogue's routes, views through ERB from the
# standard library: the smallest stack that serves apps/shared/catalogue.rb.
require "rack/files"
require "rack/sendfile"
require "rack/utils"
require_relative "../shared/catalogue"

# Routes each path to its endpoint of the catalogue.
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
  BYTES = { "content-type" => "application/octet-stream" }.freeze
  STATIC = Rack::Files.new(Workloads::PUBLIC_DIR)
  # Routes without params by their path; the others tried in turn.
  FIXED, PARAMETRIZED = Workloads::CATALOGUE.partition { |endpoint| endpoint.params.empty? }
  FIXED_BY_PATH = FIXED.to_h { |endpoint| [endpoint.route, endpoint] }.freeze

  def call(env)
    route(env["PATH_INFO"], env)
  rescue Workloads::Upstream::Unavailable, Workloads::Cache::Unavailable => e
    [503, PLAIN.dup, [e.message]]
  end

  private

  def route(path, env)
    endpoint = FIXED_BY_PATH[path]
    return serve(endpoint, [], env) if endpoint

    PARAMETRIZED.each do |candidate|
      args = candidate.match(path)
      return serve(candidate, args, env) if args
    end
    [404, PLAIN.dup, ["not found"]]
  end

  def serve(endpoint, args, env)
    method = env["REQUEST_METHOD"]
    return [405, PLAIN.merge("allow" => endpoint.verb), ["use #{endpoint.verb}"]] unless allowed?(endpoint, method)

    respond(endpoint, endpoint.call(args, query(env), env["rack.input"]), env)
  end

  def allowed?(endpoint, method)
    method == endpoint.verb || (method == "HEAD" && endpoint.verb == "GET")
  end

  def query(env)
    string = env["QUERY_STRING"].to_s
    string.empty? ? {} : Rack::Utils.parse_query(string)
  end

  def respond(endpoint, result, env)
    case endpoint.kind
    when :plain then [200, PLAIN.dup, [result]]
    when :page then [200, HTML.dup, [Page.render(result)]]
    when :html then [200, HTML.dup, [result]]
    when :bytes then [200, BYTES.dup, [result]]
    when :sendfile then Rack::Files.new(File.dirname(result)).call(env.merge("PATH_INFO" => "/#{File.basename(result)}"))
    else STATIC.call(env.merge("PATH_INFO" => "/#{File.basename(result)}"))
    end
  end
end

# With RACKBENCH_SENDFILE=X-Sendfile (Thruster, lighttpd) or X-Accel-Redirect (nginx), a file
# answer carries the file's path for the proxy to send, not its bytes (Workloads::Bodies::SENDFILE_ENV).
# Wrapped by hand, not with `use`: agoo falls back to loading this file as plain Ruby, where only `run` exists.
run Rack::Sendfile.new(RackWorkloads.new, ENV.fetch("RACKBENCH_SENDFILE", nil))
