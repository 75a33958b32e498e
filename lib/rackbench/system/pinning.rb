# frozen_string_literal: true

require "etc"

module Rackbench
  # Disjoint CPU sets for the server and the load generator (taskset), on a
  # machine with 2 or more cores: the client gets the last CPU, the server the
  # rest. RACKBENCH_CLIENT_CPU=N gives the client CPU N instead (the server
  # the others), so two runs side by side, such as `rake test`'s two workers,
  # can put their servers on different CPUs rather than both on the first.
  class Pinning
    CLIENT_CPU_VAR = "RACKBENCH_CLIENT_CPU"

    attr_reader :server_cpus, :client_cpus

    def self.choose(enabled:, cpus: available_cpus, env: ENV)
      return new(nil, nil) if !enabled || cpus.size < 2 || !Executable.available?("taskset")

      client = client_cpu(cpus, env[CLIENT_CPU_VAR])
      new(cpus - [client], [client])
    end

    # The CPUs this process may run on (respects an outer taskset or cgroup).
    def self.available_cpus = Procfs.allowed_cpus || (0...Etc.nprocessors).to_a

    def self.client_cpu(cpus, asked)
      return cpus[-1] if asked.nil? || asked.empty?

      cpu = Integer(asked, exception: false)
      return cpu if cpus.include?(cpu)

      raise ConfigError, "#{CLIENT_CPU_VAR}=#{asked}: not a CPU this process may run on (#{cpus.join(",")})"
    end

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
