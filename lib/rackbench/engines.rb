# frozen_string_literal: true

module Rackbench
  # Load generators, one file each in lib/rackbench/engines/, found by name.
  module Engines
    REGISTRY = Registry.new("engine", "engines")

    def self.register(name, klass) = REGISTRY.register(name, klass)
    def self.fetch(name) = REGISTRY.fetch(name)
    def self.names = REGISTRY.names
    def self.all = REGISTRY.all
  end
end
require_relative "engines/base"
