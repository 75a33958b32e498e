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
    # Read from the server adapter's knob schema (Targets::Knobs: the default
    # the suite check and `rackbench servers --knobs` use too), so the two
    # cannot drift; BY_DESIGN holds only what a server has no knob for.
    #
    #   ServerDefaults.value("puma", "threads")        # => 5, puma's knob default
    #   ServerDefaults.value("unicorn", "threads")     # => 1, by design
    #   ServerDefaults.value("passenger", "preload")   # => true: spawn_method's default is smart
    module ServerDefaults
      # Single-threaded, single-process or always-preloading servers: facts of their design.
      BY_DESIGN = {
        "unicorn" => { "threads" => 1 }, "pitchfork" => { "threads" => 1, "preload" => true },
        "passenger" => { "threads" => 1 }, "thin" => { "workers" => 1, "threads" => 1 }
      }.freeze
      # key => [knob, value of it that means true]: a default that follows another knob's.
      FOLLOWS = { "passenger" => { "preload" => %w[spawn_method smart] } }.freeze
      # Knob defaults that do not say what the server does, left unknown:
      # server => {key => why}.
      UNSAID = {
        "falcon" => { "threads" => "a reactor thread runs many requests at once on fibers" },
        "puma" => { "preload" => "the knob's false only means no --preload: puma >= 6 preloads workers by default " \
                                 "(the preload check reads the version)" }
      }.freeze

      module_function

      def value(server, key)
        return nil if UNSAID.dig(server, key)

        schema = Servers.names.include?(server) ? Servers.fetch(server).knob_schema : {}
        default = schema[key]&.default
        return default unless default.nil?

        knob, means_true = FOLLOWS.dig(server, key)
        return schema.fetch(knob).default == means_true if knob

        BY_DESIGN.dig(server, key)
      end
    end
  end
end
