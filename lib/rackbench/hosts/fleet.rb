# frozen_string_literal: true

require "ipaddr"

module Rackbench
  module Hosts
    # The hosts one run uses: a Connection to each host a role names (opened
    # at the start of the run, closed at its end), the engine installed on
    # each load host, a RunFolder on each server host (what a server there is
    # given is shipped into it), and the addresses load may go to. Created by the Runner.
    class Fleet
      def self.start(suite, supervisor:, dir:)
        return nil unless suite["hosts"]

        new(suite, supervisor: supervisor, dir: dir).open
      end

      # engines: what EngineInstall put on each load host; clocks: each load
      # and server host's clock offset, measured once when the run connects (Clock).
      attr_reader :hosts, :engines, :clocks

      def initialize(suite, supervisor:, dir:)
        base_dir = File.dirname(File.expand_path(suite.path.to_s))
        @hosts = suite["hosts"].to_h { |name, config| [name, Host.from_config(name, config, base_dir: base_dir)] }
        @load_names = suite["load_hosts"] || []
        @server_configs = suite.server_configs.select { |c| c["host"] || suite["server_host"] }
        @server_names = @server_configs.map { |c| c["host"] || suite["server_host"] }.uniq
        @suite = suite
        @folders = {}
        @default_server_host = suite["server_host"]
        @supervisor = supervisor
        @dir = dir
        @connections = {}
        @engines = {}
        @clocks = {}
      end

      # Connects to every host and installs the engines, all hosts at once.
      def open
        Hosts.opened(self) do
          names = (@server_names + @load_names).uniq
          opened = names.map { |name| Thread.new { Connection.new(@hosts.fetch(name), supervisor: @supervisor, dir: @dir).open } }
          names.zip(opened).each { |name, thread| @connections[name] = thread.value }
          installs = @load_names.to_h do |name|
            [name, Thread.new { [EngineInstall.new(connection(name)).call, Clock.offset(connection(name))] }]
          end
          installs.each { |name, thread| @engines[name], @clocks[name] = thread.value }
          (names - @load_names).each { |name| @clocks[name] = Clock.offset(connection(name)) }
          @server_names.each { |name| @folders[name] = open_folder(name) }
        end
      end

      def close
        @folders.each_value do |folder|
          folder.close
        rescue ServiceError
          nil # a host that dropped keeps its folder: the next run from this machine removes it
        end
        @folders.clear
        @connections.each_value(&:close)
        @connections.clear
      end

      def connection(name)
        @connections[name] ||= Connection.new(@hosts.fetch(name), supervisor: @supervisor, dir: @dir).open
      end

      # The ServerHost a server config runs on, or nil (this machine).
      def server_connection(server_config)
        name = server_config["host"] || @default_server_host
        name && ServerHost.new(connection(name), @folders.fetch(name))
      end

      # The run folders of earlier runs from this machine whose rackbench is
      # gone, removed when this one connected: {host => [folder, ...]}.
      def removed_stale = @folders.transform_values(&:removed_stale).reject { |_, dirs| dirs.empty? }

      def load_connections = @load_names.map { |name| connection(name) }

      # What the probe adds to each request's arrival - stamp, by the address
      # load comes from (the request's REMOTE_ADDR): {address => microseconds}
      # (Clock.queue_correction_us), for a server config of this run.
      def queue_corrections_us(server_config)
        name = server_config["host"] || @default_server_host
        @load_names.to_h do |load|
          [@hosts.fetch(load).address, Clock.queue_correction_us(@clocks.fetch(load), name && @clocks.fetch(name))]
        end
      end

      def engine_path(name) = @engines.fetch(name).fetch("path")

      # The Window, measuring with the load hosts' engines when the suite has load_hosts.
      def window(window)
        return window if @load_names.empty?

        Window.new(engine: RemoteLoad.new(window.engine, self), supervisor: @supervisor, pinning: Pinning.choose(enabled: false))
      end

      # Load goes to loopback, a Unix socket or a declared host's address; nothing else.
      def check_target!(target)
        return if target.unix? || addresses.include?(target.host) || loopback?(target.host)

        raise ConfigError, "target #{target.host} is none of the suite's hosts (#{addresses.join(", ")}) " \
                           "nor loopback: load goes only to declared hosts"
      end

      def addresses = @hosts.values.map(&:address)

      # Provenance: each host's destination, and the engine installed on the load hosts.
      def to_h = @hosts.to_h { |name, h| [name, { "ssh" => h.ssh, "address" => h.address, "engine" => @engines[name] }.compact] }

      private

      def open_folder(name)
        apps = @server_configs.select { |c| (c["host"] || @default_server_host) == name }.map { |c| @suite.app_path(*c["app"]) }
        RunFolder.new(connection(name), local_dir: @dir, apps: apps.uniq, app_sync: @suite["app_sync"] == true,
                                        explain: @suite["explain"] == true).open
      end

      def loopback?(host)
        addr = IPAddr.new(host.to_s.delete_prefix("[").delete_suffix("]"))
        Target::LOOPBACK.any? { |net| net.include?(addr) }
      rescue IPAddr::InvalidAddressError
        false
      end
    end
  end
end
