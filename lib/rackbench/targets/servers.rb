# frozen_string_literal: true

module Rackbench
  # App servers, one file each in lib/rackbench/targets/servers/, found by name.
  module Servers
    REGISTRY = Registry.new("server", "targets/servers")

    extend Registry::Facade
  end
end
require_relative "servers/base"
