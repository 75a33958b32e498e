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

    # What a server does when neither the suite nor the app's file says.
    # Read from the server's adapter: its knob schema (Targets::Knobs: the
    # default the suite check and `rackbench servers --knobs` use too), and
    # for what it has no knob for, its facts (Servers::Base.facts: by_design,
    # follows, unsaid), so the two cannot drift.
    #
    #   ServerDefaults.value("puma", "threads")        # => 5, puma's knob default
    #   ServerDefaults.value("unicorn", "threads")     # => 1, by design
    #   ServerDefaults.value("passenger", "preload")   # => true: spawn_method's default is smart
    module ServerDefaults
      module_function

      def value(server, key)
        adapter = Servers.names.include?(server) ? Servers.fetch(server) : nil
        facts = adapter ? adapter.facts : {}
        return nil if facts.dig(:unsaid, key)

        schema = adapter ? adapter.knob_schema : {}
        default = schema[key]&.default
        return default unless default.nil?

        knob, means_true = facts.dig(:follows, key)
        return schema.fetch(knob).default == means_true if knob

        facts.dig(:by_design, key)
      end
    end
  end
end
