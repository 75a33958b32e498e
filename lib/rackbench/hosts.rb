# frozen_string_literal: true

module Rackbench
  # Running across machines: a suite's hosts: map, the roles it gives them
  # (server_host / a server's host:, load_hosts:), and everything rackbench
  # does on them over OpenSSH. Without hosts: none of this is loaded.
  #
  #   fleet = Hosts::Fleet.start(suite, supervisor: supervisor, dir: run_dir)  # nil without hosts:
  #   fleet.connection("app1")   # Hosts::Connection (ControlMaster), spawn/capture/upload/push/pull
  #   fleet.server_connection(config)  # Hosts::ServerHost: a server's host, its RunFolder (ship, fetch)
  #   fleet.window(window)       # the Window, its engine replaced by RemoteLoad when load_hosts is set
  #   fleet.close
  module Hosts
    # Runs the block that opens `closable` (a Connection, a Fleet) and
    # returns it; when the block raises, closes what it opened so far first:
    # open whole or not at all, nothing left running on any host.
    def self.opened(closable)
      yield
      closable
    rescue StandardError
      closable.close
      raise
    end
  end
end

require_relative "hosts/host"
require_relative "hosts/connection"
require_relative "hosts/clock"
require_relative "hosts/engine_install"
require_relative "hosts/remote_sampler"
require_relative "hosts/host_cpu"
require_relative "hosts/remote_load"
require_relative "hosts/path_map"
require_relative "hosts/run_folder"
require_relative "hosts/server_host"
require_relative "hosts/fleet"
