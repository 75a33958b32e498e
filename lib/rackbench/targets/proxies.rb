# frozen_string_literal: true

module Rackbench
  # Proxies and balancers (nginx, lighttpd, haproxy, ...) in front of server
  # instances, one file each in lib/rackbench/targets/proxies/, found by name.
  module Proxies
    REGISTRY = Registry.new("proxy", "targets/proxies")

    extend Registry::Facade
  end
end
