# frozen_string_literal: true

module Rackbench
  # Proxies and balancers (nginx, lighttpd, haproxy, ...) in front of server
  # instances, one file each in lib/rackbench/proxies/, found by name.
  module Proxies
    REGISTRY = Registry.new("proxy", "proxies")

    extend Registry::Facade
  end
end
