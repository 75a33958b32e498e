# frozen_string_literal: true

# Serves a config.ru on Mongrel 1.2 (004_d5fd84afbf770cf8.txt's server). Rack
# dropped its Mongrel handler long ago, so this is the handler: Mongrel parses
# HTTP and calls #process; we build the Rack env and write Rack's answer.
# Started by Rackbench::Servers::Mongrel as: ruby rack_server.rb PORT CONFIG_RU [--lock]
# --lock serves one request at a time (Rack::Lock), as a Rails 2 Mongrel did.
require "mongrel"
require "rack"
require "rack/lock"
require "stringio"

# One Mongrel handler in front of one Rack app.
class RackbenchMongrelHandler < Mongrel::HttpHandler
  def initialize(app)
    super()
    @app = app
  end

  def process(request, response)
    status, headers, body = @app.call(rack_env(request))
    response.start(status.to_i) do |head, out|
      headers.each do |name, value|
        Array(value).flat_map { |v| v.to_s.split("\n") }.each { |v| head[name] = v }
      end
      body.each { |part| out.write(part) }
    end
  ensure
    body.close if body.respond_to?(:close)
  end

  private

  def rack_env(request)
    params = request.params
    env = params.to_h.except("HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH")
    input = request.body || StringIO.new("")
    input.rewind if input.respond_to?(:rewind)
    env.merge(
      "SCRIPT_NAME" => "", "PATH_INFO" => params["REQUEST_PATH"].to_s, "QUERY_STRING" => params["QUERY_STRING"].to_s,
      "SERVER_PROTOCOL" => params["HTTP_VERSION"] || "HTTP/1.1", "rack.input" => input, "rack.errors" => $stderr,
      "rack.url_scheme" => "http", "rack.multithread" => true, "rack.multiprocess" => false, "rack.run_once" => false,
      "rack.hijack?" => false
    )
  end
end

port, rackup, lock = ARGV
app = Rack::Builder.parse_file(rackup)
app = app.first if app.is_a?(Array) # rack < 3 returns [app, options]
app = Rack::Lock.new(app) if lock == "--lock"
server = Mongrel::HttpServer.new("127.0.0.1", Integer(port))
server.register("/", RackbenchMongrelHandler.new(app))
warn "mongrel #{Mongrel::Const::MONGREL_VERSION} listening on 127.0.0.1:#{port}"
%w[INT TERM].each { |sig| trap(sig) { server.stop } }
server.run.join
