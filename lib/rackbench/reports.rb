# frozen_string_literal: true

module Rackbench
  # Report formats, one file each in lib/rackbench/reports/, found by name.
  # A report is a pure function of stored results: `rackbench report RUN` re-renders any old run.
  module Reports
    REGISTRY = Registry.new("report format", "reports")

    def self.register(name, klass) = REGISTRY.register(name, klass)
    def self.fetch(name) = REGISTRY.fetch(name)
    def self.names = REGISTRY.names
  end
end
require_relative "reports/base"
