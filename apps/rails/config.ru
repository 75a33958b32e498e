# frozen_string_literal: true

# The bundled Rails workload app (Rails 7.2; 6.1 on JRuby; production, eager loading):
# the endpoints of apps/shared/workloads.rb as controller actions, the page
# through Action View. Only railties, actionpack, actionview and activesupport.
require_relative "config/environment"

run Rails.application
