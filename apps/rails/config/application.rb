# frozen_string_literal: true

# puma --environment production sets RACK_ENV; Rails reads RAILS_ENV first.
ENV["RAILS_ENV"] ||= ENV.fetch("RACK_ENV", "production")

require_relative "boot"
require "securerandom"
# Before rails: Rails 6.1 reads ::Logger, which concurrent-ruby 1.3.5+ no longer loads.
require "logger"
require "rails"
require "action_controller/railtie"
require "action_view/railtie"
require_relative "../../shared/catalogue"

module RackbenchWorkloads
  # A minimal production-mode Rails app: no database layer (the /db workload
  # talks to its driver, like the other frameworks), no assets, no mailers.
  class Application < Rails::Application
    # Rails 7.2 on MRI (the bundle); Rails 6.1 on JRuby 9.3, whose Ruby 2.6
    # newer Rails does not support (bin/setup installs it in vendor/jruby).
    config.load_defaults Rails.gem_version >= Gem::Version.new("7.2") ? 7.2 : 6.1
    config.root = File.expand_path("..", __dir__)
    config.eager_load = true
    config.consider_all_requests_local = false
    config.action_controller.perform_caching = true
    config.cache_store = :null_store
    config.secret_key_base = ENV.fetch("SECRET_KEY_BASE") { SecureRandom.hex(64) }

    # The shared page template and static file, as every framework uses them.
    config.paths["app/views"] = Workloads::VIEWS_DIR
    config.paths["public"] = Workloads::PUBLIC_DIR
    config.public_file_server.enabled = true
    # X-Sendfile (Thruster, lighttpd) or X-Accel-Redirect (nginx): a file answer names the file for the proxy to send.
    config.action_dispatch.x_sendfile_header = ENV.fetch("RACKBENCH_SENDFILE", nil)

    # Warnings and errors only, to the server's log: the other apps log no
    # request lines either, so Rails is not measured writing them.
    config.logger = ActiveSupport::Logger.new($stdout)
    config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "warn")
  end
end
