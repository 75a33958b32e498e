# frozen_string_literal: true

module Rackbench
  module Hosts
    # A server host as a Deployment sees it: where its processes listen (the
    # host's address), how they start (over the Connection, under the Wrapper,
    # every path they are given mapped into the host's RunFolder), and how
    # what rackbench generated goes there and what they wrote comes back.
    # Fleet#server_connection gives one per server config on a host.
    #
    #   host = fleet.server_connection(config)   # => ServerHost, or nil for this machine
    #   host.ship(dir)                           # after writing configs into dir
    #   host.spawn(argv, name:, log_path:, env:, chdir:)
    #   host.fetch(dir)                          # after a start, each window and the stop
    #   host.sampler(root_pids) / host.worker_memory(root_pids)
    class ServerHost
      attr_reader :connection, :folder

      def initialize(connection, folder)
        @connection = connection
        @folder = folder
      end

      def host = connection.host
      def address = host.address
      def name = host.name
      def capture(...) = connection.capture(...)

      def ship(local_dir) = folder.ship(local_dir)
      def fetch(local_dir) = folder.fetch(local_dir)

      def spawn(argv, name:, log_path:, env: {}, chdir: "/")
        map = folder.map
        connection.spawn(map.argv(argv), name: name, log_path: log_path, env: map.env(env), chdir: map.call(chdir.to_s))
      end

      def sampler(root_pids) = RemoteSampler.new(connection, root_pids: root_pids)

      # WorkerMemory's snapshot, read from the host's /proc (RemoteSampler.worker_memory);
      # nil when it cannot be read (the window keeps its other figures).
      def worker_memory(root_pids)
        RemoteSampler.worker_memory(connection, root_pids)
      rescue ServiceError
        nil
      end
    end
  end
end
