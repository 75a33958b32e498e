# frozen_string_literal: true

module Rackbench
  # Load generators, one file each in lib/rackbench/engines/, found by name.
  module Engines
    REGISTRY = Registry.new("engine", "engines")

    extend Registry::Facade
  end
end
require_relative "engines/base"
