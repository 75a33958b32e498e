# frozen_string_literal: true

# Serves a config.ru on TorqueBox 4 (torquebox-web: Undertow embedded in
# JRuby, through WunderBoss). Started by Rackbench::Servers::Torquebox as:
#   jruby torquebox_server.rb PORT WORKER_THREADS CONFIG_RU
# Written in Ruby 2.6 (JRuby 9.3). The rack app is built here and handed over
# whole: torquebox-web's own rackup loading expects Rack 1's [app, options].
require "jruby"
require "torquebox-web"
require "rack"

port, worker_threads, rackup = ARGV
app = Rack::Builder.parse_file(rackup)
app = app.first if app.is_a?(Array)
options = TorqueBox::Web::Undertow.builder(host: "127.0.0.1", port: Integer(port), worker_threads: Integer(worker_threads))
server = TorqueBox::Web.run(options.merge(rack_app: app, root: File.dirname(rackup), auto_start: true))
warn "torquebox-web listening on 127.0.0.1:#{port}"
%w[INT TERM].each do |sig|
  trap(sig) do
    server.stop
    exit
  end
end
sleep
