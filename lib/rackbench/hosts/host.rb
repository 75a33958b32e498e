# frozen_string_literal: true

module Rackbench
  module Hosts
    # One entry of a suite's hosts: map, as the suite wrote it.
    #
    #   hosts:
    #     app1:  {ssh: bench@10.0.0.2, address: 10.0.0.2}
    #     load1: {ssh: load1.lan, user: bench, port: 2222, identity: ~/.ssh/bench, ssh_config: ./ssh_config}
    #
    # ssh: the destination as ssh takes it (an alias of the user's ssh config
    # works); address: where load reaches a server on this host (default: the
    # destination's host part); engine: a rackbench-load already on the host
    # (default: rackbench installs its own, see EngineInstall); ssh_options:
    # more -o options; run_dir: the folder where a server host keeps the
    # run folders rackbench makes there (RunFolder; default
    # ~/.cache/rackbench/runs). Host keys are checked as the user's ssh config says.
    Host = Struct.new(:name, :ssh, :user, :port, :identity, :ssh_config, :address, :engine, :ssh_options, :run_dir,
                      keyword_init: true) do
      def self.from_config(name, config, base_dir: Dir.pwd)
        path = ->(p) { p && File.expand_path(p, base_dir) }
        new(name: name, ssh: config.fetch("ssh"), user: config["user"], port: config["port"],
            identity: path.call(config["identity"]), ssh_config: path.call(config["ssh_config"]),
            address: config["address"] || config.fetch("ssh").split("@").last, engine: config["engine"],
            ssh_options: config["ssh_options"] || [], run_dir: config["run_dir"])
      end

      # The options every ssh and scp to this host takes (scp spells the port -P).
      def ssh_args(port_flag: "-p")
        args = []
        args += ["-F", ssh_config] if ssh_config
        args += [port_flag, port.to_s] if port
        args += ["-o", "User=#{user}"] if user
        args += ["-i", identity, "-o", "IdentitiesOnly=yes"] if identity
        args + ssh_options.flat_map { |o| ["-o", o] }
      end
    end
    Host::KEYS = %w[ssh user port identity ssh_config address engine ssh_options run_dir].freeze
  end
end
