# frozen_string_literal: true

module Rackbench
  # App servers, one file each in lib/rackbench/servers/, found by name.
  module Servers
    REGISTRY = Registry.new("server", "servers")

    def self.register(name, klass) = REGISTRY.register(name, klass)
    def self.fetch(name) = REGISTRY.fetch(name)
    def self.names = REGISTRY.names
    def self.all = REGISTRY.all
  end
end
require_relative "servers/base"
