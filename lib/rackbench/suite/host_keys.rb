# frozen_string_literal: true

module Rackbench
  class Suite
    # Validation of the keys that spread a suite over several machines (Hosts):
    #
    #   hosts:
    #     app1:  {ssh: bench@10.0.0.2}
    #     load1: {ssh: bench@10.0.0.3}
    #     load2: {ssh: bench@10.0.0.4}
    #   server_host: app1          # every server runs there (or a server entry's host:)
    #   load_hosts: [load1, load2] # the native engine runs there, load split across them
    #
    # Without hosts: a suite runs on this machine, as ever.
    module HostKeys
      private

      def validate_hosts
        hosts = @data["hosts"]
        return refuse_roles_without_hosts unless hosts

        raise error(["hosts"], "must map host names to {ssh: destination, ...}") unless hosts.is_a?(Hash) && !hosts.empty?

        hosts.each { |name, config| validate_host(name, config) }
        validate_server_hosts(hosts)
        validate_load_hosts(hosts)
      end

      def refuse_roles_without_hosts
        key = (%w[server_host load_hosts] & @data.keys).first
        key ||= @data["servers"].each_index.find { |i| @data["servers"][i].is_a?(Hash) && @data["servers"][i]["host"] }
                                &.then { |i| ["servers", i, "host"] }
        raise error(Array(key), "names a host, but the suite has no hosts: map") if key
      end

      def validate_host(name, config)
        raise error(["hosts", name], "must be a mapping with an ssh: destination") unless config.is_a?(Hash)

        unknown = config.keys - Hosts::Host::KEYS
        raise error(["hosts", name, unknown.first], "unknown key; a host takes #{Hosts::Host::KEYS.join(", ")}") if unknown.any?
        unless config["ssh"].is_a?(String) && !config["ssh"].strip.empty?
          raise error(["hosts", name], "needs ssh: a destination such as user@host")
        end
        if config.key?("port") && !Port.valid?(config["port"])
          raise error(["hosts", name, "port"],
                      "must be a TCP port (1-65535)")
        end
        return if config["ssh_options"].nil? || (config["ssh_options"].is_a?(Array) && config["ssh_options"].all?(String))

        raise error(["hosts", name, "ssh_options"], "must be a list of ssh -o options such as \"Compression=no\"")
      end

      def validate_server_hosts(hosts)
        check_name = ->(key_path, name) { name.nil? || hosts.key?(name) || raise(error(key_path, unknown_host(name, hosts))) }
        check_name.call(["server_host"], @data["server_host"])
        @data["servers"].each_with_index do |entry, i|
          name = entry["host"] || @data["server_host"]
          check_name.call(["servers", i, "host"], entry["host"])
          next unless name

          where = entry["host"] ? ["servers", i, "host"] : ["server_host"]
          if entry["bind"].to_s == "unix"
            raise error(["servers", i, "bind"],
                        "a server on host #{name} listens on TCP (bind: unix is local)")
          end
          if entry.dig("proxy", "bind").to_s == "unix"
            raise error(["servers", i, "proxy", "bind"], "a proxy on host #{name} listens on TCP (bind: unix is local)")
          end
          raise error(where, "services run on this machine: a server on host #{name} could not reach them") if @data["services"]
        end
      end

      def validate_load_hosts(hosts)
        names = @data["load_hosts"]
        return if names.nil?

        raise error(["load_hosts"], "must be a list of host names") unless names.is_a?(Array) && !names.empty?

        names.each_with_index { |n, i| raise error(["load_hosts", i], unknown_host(n, hosts)) unless hosts.key?(n) }
        raise error(["load_hosts"], "lists a host twice") if names.uniq.size != names.size
        raise error(["engine"], "load_hosts runs the native engine (engine: native)") if (@data["engine"] || "native") != "native"
        return if @data["servers"].all? { |e| e["host"] || @data["server_host"] }

        raise error(["load_hosts"], "needs every server on a host (server_host: or host:), so load hosts can reach it")
      end

      def unknown_host(name, hosts) = "#{name.inspect} is not in hosts: (#{hosts.keys.join(", ")})"
    end
  end
end
