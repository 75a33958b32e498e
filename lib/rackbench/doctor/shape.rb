# frozen_string_literal: true

module Rackbench
  module Doctor
    # One server config as it would run: its processes, threads and preload,
    # each with where the value came from (a suite key, the app's own server
    # config file, or the server's default). Built by Subject.
    #
    #   shape.workers              # => 4
    #   shape.where["workers"]     # => "bench.yml:9 servers.1.workers"
    Shape = Struct.new(:label, :server, :workers, :threads, :preload, :log_requests, :instances, :yjit, :where,
                       keyword_init: true) do
      # Processes that run the app: cluster workers, or the one process of a single-mode server.
      def processes = [workers.to_i, 1].max * instances

      # Database connections the config can hold at once (one per app thread), or nil when unknown.
      def connections = threads && (processes * threads)
    end

    # What a server does when neither the suite nor the app's file says:
    # server => {key => [value, why]}.
    SERVER_DEFAULTS = {
      "puma" => { "workers" => 0, "threads" => 5 },
      "unicorn" => { "workers" => 1, "threads" => 1, "preload" => false },
      "pitchfork" => { "workers" => 1, "threads" => 1, "preload" => true },
      "passenger" => { "threads" => 1, "preload" => true },
      "itsi" => { "workers" => 1, "threads" => 1 },
      "thin" => { "workers" => 1, "threads" => 1 }
    }.freeze
  end
end
