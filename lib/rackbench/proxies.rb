# frozen_string_literal: true

module Rackbench
  # Proxies and balancers (nginx, lighttpd, haproxy, ...) in front of server
  # instances, one file each in lib/rackbench/proxies/, found by name.
  module Proxies
    REGISTRY = Registry.new("proxy", "proxies")

    def self.register(name, klass) = REGISTRY.register(name, klass)
    def self.fetch(name) = REGISTRY.fetch(name)
    def self.names = REGISTRY.names
    def self.all = REGISTRY.all
  end
end
