# frozen_string_literal: true

# Serves a config.ru on TorqueBox 4 (torquebox-web: Undertow embedded in
# JRuby, through WunderBoss). Started by Rackbench::Servers::Torquebox as:
#   jruby torquebox_server.rb PORT WORKER_THREADS CONFIG_RU
# Written in Ruby 2.6 (JRuby 9.3). The rack app is built here and handed over
# whole: torquebox-web's own rackup loading expects Rack 1's [app, options].
require "jruby"
require_relative "rack2"
require "torquebox-web"
require "rack"

# Two fixes to the env TorqueBox hands over, before the app sees it:
# - It is a Hash that fills each entry when it is first read, and under JRuby
#   9.3 only some Hash methods fill it (see torquebox_patch.rb):
#   env.key?("HTTP_HOST") is false, and env.size counts 4 entries, until
#   something reads them. So every entry is filled first, and the env then
#   behaves as any Rack env (Rack::Lint's checks included).
# - Without a Content-Type header, CONTENT_TYPE is the string "null" (its
#   adapter appends the missing header to ""); Rails 6.1 answers that 406
#   (not a valid MIME type). Rack's env has no CONTENT_TYPE then.
class RackEnvFixes
  def initialize(app)
    @app = app
  end

  def call(env)
    env.each_key { |_| nil }
    exchange = env["undertow.exchange"]
    env.delete("CONTENT_TYPE") if exchange && exchange.getRequestHeaders.getFirst("Content-Type").nil?
    @app.call(env)
  end
end

port, worker_threads, rackup = ARGV
app = Rack::Builder.parse_file(rackup)
app = app.first if app.is_a?(Array)
options = TorqueBox::Web::Undertow.builder(host: "127.0.0.1", port: Integer(port), worker_threads: Integer(worker_threads))
server = TorqueBox::Web.run(options.merge(rack_app: RackEnvFixes.new(app), root: File.dirname(rackup), auto_start: true))
warn "torquebox-web listening on 127.0.0.1:#{port}"
%w[INT TERM].each do |sig|
  trap(sig) do
    server.stop
    exit
  end
end
sleep
