# frozen_string_literal: true

require "etc"

module Rackbench
  # Disjoint CPU sets for the server and the load generator (taskset), on a
  # machine with 2 or more cores: the client gets the last CPU, the server the rest.
  class Pinning
    attr_reader :server_cpus, :client_cpus

    def self.choose(enabled:, cpus: available_cpus)
      return new(nil, nil) if !enabled || cpus.size < 2 || !Executable.available?("taskset")

      new(cpus[0..-2], [cpus[-1]])
    end

    # The CPUs this process may run on (respects an outer taskset or cgroup).
    def self.available_cpus = Procfs.allowed_cpus || (0...Etc.nprocessors).to_a

    def initialize(server_cpus, client_cpus)
      @server_cpus = server_cpus
      @client_cpus = client_cpus
    end

    def enabled? = !server_cpus.nil?

    def to_s
      enabled? ? "server on CPU #{server_cpus.join(",")}, load generator on CPU #{client_cpus.join(",")}" : "not pinned"
    end

    def to_h = { "server_cpus" => server_cpus, "client_cpus" => client_cpus }
  end
end
