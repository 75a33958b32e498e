# frozen_string_literal: true

module Rackbench
  # Backing services a suite names (upstream HTTP stub, postgres, memcached),
  # one file each in lib/rackbench/targets/services/, found by name. Started once per
  # run before any server, stopped after the last.
  #
  # Contract of a service class (Services.fetch(name)):
  #   service = klass.new(config)              # config: the suite's entry, e.g. {"service"=>"upstream", "delay_ms"=>50}
  #   env = service.start(supervisor, dir)     # starts and waits until ready; returns env vars for the app
  #                                            # (e.g. {"RACKBENCH_UPSTREAM_URL"=>"http://127.0.0.1:PORT/"})
  #   service.stop(supervisor)
  #   service.commands                         # argv of every process it started, for provenance
  module Services
    REGISTRY = Registry.new("service", "targets/services")

    extend Registry::Facade
  end
end
