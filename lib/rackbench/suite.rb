# frozen_string_literal: true

require "psych"
require_relative "suite/ranges"
require_relative "suite/own_app_keys"
require_relative "suite/host_keys"
require_relative "suite/scaling"

module Rackbench
  # A suite file, read and validated. Errors name the file, the line and the key.
  #
  #   name: quick
  #   app: rack                 # a bundled app (apps/NAME) or a path to a config.ru
  #   endpoints: [/hello, /sleep/50]
  #   concurrency: [1, 8, 32]
  #   duration_s: 3
  #   warmup_s: 1
  #   engine: wrk
  #   servers:
  #     - {server: puma, threads: 16}
  #     - {server: unicorn, workers: 2}
  #
  # smoke: and scale: hold overrides that --smoke and --scale apply (Suite::Scaling):
  # a plain value replaces the suite's; a mapping (`concurrency: {500: 100}`)
  # rewrites those values everywhere, or for the endpoints named; `workers:
  # by_cpus` scales by the server's CPUs. What changed is kept in data["scaled"].
  class Suite
    include Ranges
    include OwnAppKeys
    include HostKeys
    include Scaling

    BUILTIN_DIR = File.join(__dir__, "suite", "builtin")

    MAX_DURATION_S = 86_400 # one day: a cell, a warm-up, a timeout

    def self.key(name, types, **options) = [name, Knob.new(name, types, **options)]

    def self.duration(name, doc, low = { above: 0 }, **options)
      key(name, :number, unit: "seconds", max: MAX_DURATION_S, doc: doc, **low, **options)
    end
    private_class_method :key, :duration

    # Every top-level key of a suite: its type, bounds, default and meaning (Knob).
    KEYS = [
      key("name", :string, doc: "the suite's name (default: its file's)"),
      key("description", :string, default: "", doc: "one line on what it measures"),
      key("app", :string, default: "rack", doc: "a bundled app (apps/NAME) or a path to a config.ru"),
      # The app's own needs (OwnApp): env vars of every server, commands run
      # once before the first deployment, the path that answers once it is ready.
      key("env", :mapping, default: {}, doc: "environment variables of every server"),
      key("setup", :list, doc: "commands run once before the first deployment"),
      key("reset", :list, doc: "commands that reset the app's data before each start (or window)"),
      key("reset_each", :one_of, values: %w[start window], doc: "when reset: runs"),
      key("ready_path", :string, doc: "the path that answers once the app is ready"),
      key("endpoints", :list, doc: "paths, or {path: ..., expect_body: ...}"),
      key("mix", :list, doc: "weighted endpoints sent as one traffic mix"),
      key("concurrency", :list, default: [10], doc: "connections of each cell"),
      duration("duration_s", "measured seconds per cell", default: 2),
      duration("warmup_s", "load applied before measuring, never counted", { min: 0 }, default: 1),
      # SteadyWarmup: until the last seconds' throughput has no trend (default for Rails, yjit and JRuby servers).
      key("warmup", :string, doc: "steady (until throughput has no trend) or fixed (warmup_s)"),
      duration("warmup_s_max", "the longest a steady warm-up may take", default: SteadyWarmup::DEFAULT_MAX_S),
      key("requests", :whole, min: 1, max: 1_000_000_000, doc: "requests per cell instead of a duration"),
      duration("timeout_s", "seconds a request may take", default: 10),
      key("rate", :number, above: 0, unit: "requests per second", doc: "one offered open-loop rate"),
      # A rate sweep: each offered open-loop rate (req/s) a level of every cell
      # (Plan), at each concurrency, which sets the connections available.
      key("rates", %i[list string],
          doc: "offered open-loop rates, each a level of every cell; or auto: found from each config's knee under slo:"),
      key("slo", :string, doc: "rates: auto's bound, as tune's --slo: 'p99<=200ms' or 'p99<=200ms,errors<=1%'"),
      key("arrivals", :one_of, values: %w[auto uniform poisson],
                               doc: "open loop's arrivals: evenly spaced, or random (Poisson, seeded); " \
                                    "auto: poisson in a rate sweep, uniform at a fixed rate"),
      key("engine", :string, default: "native", doc: "the load engine: native, wrk or ab"),
      key("client_threads", :whole, min: 1, max: 256, default: 1, doc: "load generator threads (rackbench-load's limit: 256)"),
      key("keepalive", :boolean, default: true, doc: "keep connections open between requests"),
      key("pin", :boolean, default: true, doc: "pin the server and the load generator to disjoint CPUs"),
      duration("ready_timeout_s", "seconds a deployment may take to answer", default: 30),
      key("servers", :list, doc: "server configs, each {server: NAME, knobs...}"),
      key("services", :list, doc: "backing services, each {service: NAME, ...}"),
      key("depends_on", :list, doc: "processes the app depends on, already running: {name:, port:|pid_file:|command:}"),
      # Across machines (Hosts): ssh destinations by name, and the roles they take.
      key("hosts", :mapping, doc: "ssh destinations by name"),
      key("server_host", :string, doc: "the host the servers run on"),
      key("load_hosts", :list, doc: "the hosts the load comes from"),
      # How many server starts and windows (RepeatPolicy, StartSample):
      # "auto" runs `deployments` starts of `windows` windows, then as many
      # more starts (at most max_deployments, and max_cell_s seconds of load a
      # cell) as the throughput interval needs to be within ±precision;
      # `repeats: N` runs N windows over `deployments` starts. Configs whose
      # ratio's interval lies within ±margin of 1 are "equivalent".
      key("repeats", :any, default: "auto", doc: "auto, or a whole number of windows per cell"),
      key("deployments", :whole, min: 1, default: 4, doc: "server starts of the first stage (fixed: starts in all)"),
      key("windows", :whole, min: 1, default: 2, doc: "windows per server start (auto)"),
      key("max_deployments", :whole, min: 1, default: 10, doc: "server starts auto stops at"),
      duration("max_cell_s", "seconds of load per cell beyond which auto adds no start", default: 60),
      key("precision", :number, above: 0, max: 0.99, default: 0.05,
                                doc: "the throughput interval's half-width auto aims for (0.05: ±5 %)"),
      key("margin", :number, above: 0, max: 0.99, default: 0.05,
                             doc: "configs within ±margin of each other are equivalent (0.05: ±5 %)"),
      key("order", :one_of, values: Schedule::ORDERS, doc: "the order cells run in"),
      key("seed", :whole, doc: "the seed of order: random"),
      duration("drain_timeout_s", "seconds to wait for a server to go idle", { min: 0 }, default: 30),
      key("drain_path", :string, doc: "the path the drain probes"),
      key("smoke", :mapping, default: {}, doc: "what --smoke overrides"),
      key("scale", :mapping, default: {}, doc: "what --scale overrides"),
      key("article", :mapping, default: {}, doc: "the article's claims"),
      key("explain", :boolean, default: false, doc: "split latency into queue, app and GC (the probe; engine: native)"),
      key("capacity", :mapping, doc: "memory, price_per_hour and cpus of the machine to size for (Capacity)")
    ].to_h.freeze
    REQUIRED = %w[endpoints servers].freeze

    attr_reader :path, :data

    def self.builtin_names
      Dir[File.join(BUILTIN_DIR, "*.yml")].map { |f| File.basename(f, ".yml") }.sort
    end

    # A built-in suite's name or a path to a YAML file.
    def self.load(name_or_path, overrides: {})
      path = File.exist?(name_or_path.to_s) ? name_or_path : File.join(BUILTIN_DIR, "#{name_or_path}.yml")
      unless File.exist?(path)
        raise ConfigError, "no suite #{name_or_path.inspect}: not a file, and not a built-in suite " \
                           "(#{builtin_names.join(", ")})"
      end
      new(File.read(path), path: path, overrides: overrides)
    end

    def initialize(yaml, path: "(suite)", overrides: {})
      @path = path
      @lines = {}
      root = parse(yaml)
      @data = root.to_ruby
      raise error(nil, "must be a mapping of keys (name, app, endpoints, servers, ...)") unless @data.is_a?(Hash)

      index_lines(root.children.first, [])
      validate!
      apply_defaults
      overrides = overrides.dup
      smoke = overrides.delete("smoke")
      scale = overrides.delete("scale")
      apply_overrides(smoke ? "smoke" : "scale", pin: overrides["pin"]) if smoke || scale
      apply_smoke_statistics if smoke
      validate_overrides_given(overrides)
      @data.merge!(overrides)
      @data["overrides"] = overrides unless overrides.empty?
    end

    def [](key) = @data[key]
    # The line of a key path (["servers", 0, "workers"]) in the file, or nil.
    def line(key_path) = @lines[key_path]
    def name = @data["name"] || File.basename(path, ".yml")

    # [{"name"=>, "path"=>, "expect_status"=>, "expect_body"=>, "method"=>, ...}],
    # then the mix (see Traffic) when the suite has one.
    def endpoints
      listed = @data["endpoints"].map { |e| e.is_a?(String) ? { "name" => e, "path" => e } : { "name" => e["path"] }.merge(e) }
      return listed unless @data["mix"]

      members = @data["mix"].map do |m|
        { "endpoint" => listed.find do |e|
                          [e["name"], e["path"]].include?(m["endpoint"])
                        end, "weight" => m["weight"] }
      end
      listed + [{ "name" => Traffic::MIX_NAME, "path" => Request.new(members.first["endpoint"]).path, "mix" => members }]
    end

    def server_configs = @data["servers"]

    # Path of the config.ru to serve (a server entry may name its own app).
    def app_path(app = @data["app"])
      bundled = File.join(ROOT, "apps", app, "config.ru")
      return bundled if File.exist?(bundled)

      candidate = File.expand_path(app, File.dirname(path))
      candidate = File.join(candidate, "config.ru") if File.directory?(candidate)
      return candidate if File.exist?(candidate)

      raise error(["app"], "#{app.inspect} is neither a bundled app (#{Apps.names.join(", ")}) nor a config.ru")
    end

    # ConfigError naming file, line and key path.
    def error(key_path, message)
      line = key_path && (@lines[key_path] || @lines[key_path[0, 1]])
      where = [path, line].compact.join(":")
      key = key_path ? " #{key_path.join(".")}" : ""
      ConfigError.new("#{where}:#{key} #{message}")
    end

    private

    def parse(yaml)
      Psych.parse(yaml, filename: path) || raise(error(nil, "is empty"))
    rescue Psych::SyntaxError => e
      raise ConfigError, "#{path}:#{e.line}: invalid YAML: #{e.problem} #{e.context}".strip
    end

    # Remembers the line of every key, so errors can name it.
    def index_lines(node, key_path)
      case node
      when Psych::Nodes::Mapping
        node.children.each_slice(2) do |k, v|
          p = key_path + [k.value]
          @lines[p] = k.start_line + 1
          index_lines(v, p)
        end
      when Psych::Nodes::Sequence
        node.children.each_with_index do |v, i|
          @lines[key_path + [i]] = v.start_line + 1
          index_lines(v, key_path + [i])
        end
      end
    end

    def validate!
      @data.each { |key, value| validate_type(key, value) }
      REQUIRED.each { |k| raise error(nil, "missing key #{k.inspect}") unless @data[k] }
      validate_list("concurrency") { |c| c.is_a?(Integer) && c.positive? ? nil : "must be a whole number > 0" }
      validate_list("endpoints") do |e|
        path = e.is_a?(Hash) ? e["path"] : e
        path.is_a?(String) && path.start_with?("/") ? nil : "must be a path starting with / (or {path: ...})"
      end
      validate_endpoint_levels
      validate_port_ranges # before the adapters see a port: the error names the exact key
      validate_own_app
      validate_servers
      validate_services
      validate_hosts
      validate_engine
      Capacity.settings(@data["capacity"]) { |key, message| raise error(["capacity", key], message) }
      validate_statistics(@data)
      %w[smoke scale].each { |block| validate_overrides(block) }
      validate_all_ranges
    end

    # repeats: "auto" or a whole number >= 1; counts >= 1; 0 < precision < 1.
    def validate_statistics(data, where = [])
      repeats = data["repeats"]
      unless repeats.nil? || repeats == "auto" || (repeats.is_a?(Integer) && repeats.positive?)
        raise error(where + ["repeats"], "must be auto or a whole number >= 1, got #{repeats.inspect}")
      end

      %w[min_repeats max_repeats].each do |key|
        next unless data.key?(key)

        raise error(where + [key], "was replaced by deployments (server starts), windows (per start) and " \
                                   "max_deployments: a start, not a window, is the unit of noise")
      end
      %w[deployments windows max_deployments].each do |key|
        value = data[key]
        next if value.nil? || (value.is_a?(Integer) && value.positive?)

        raise error(where + [key], "must be a whole number >= 1, got #{value.inspect}")
      end
      %w[precision margin].each do |key|
        value = data[key]
        next if value.nil? || (value.is_a?(Numeric) && value.positive? && value < 1)

        raise error(where + [key], "must be a share between 0 and 1 (0.05 for ±5 %), got #{value.inspect}")
      end

      drain_path = data["drain_path"]
      if drain_path && !drain_path.start_with?("/")
        raise error(where + ["drain_path"], "must be a path starting with /, got #{drain_path.inspect}")
      end

      max_cell_s = data["max_cell_s"]
      raise error(where + ["max_cell_s"], "must be > 0, got #{max_cell_s.inspect}") if max_cell_s && !max_cell_s.positive?
    end

    # Command-line overrides get the same checks as the file's keys; an error
    # names the option's key (there is no line to name).
    def validate_overrides_given(overrides)
      overrides.each { |key, value| validate_type(key, value, ["(command line)"]) if KEYS.key?(key) }
      validate_statistics(overrides, ["(command line)"])
      validate_ranges(overrides, ["(command line)"])
      Capacity.settings(overrides["capacity"]) { |key, message| raise error(["(command line)", "--#{key}"], message) }
    end

    # A smoke run tests the plumbing, not the figures: one repeat on one
    # deployment, unless the suite's smoke: block says otherwise.
    def apply_smoke_statistics
      block = @data["smoke"] || {}
      @data["repeats"] = 1 unless block.key?("repeats")
      @data["deployments"] = 1 unless block.key?("deployments")
    end

    def validate_type(key, value, where = [])
      knob = KEYS.fetch(key) { raise error([key], "unknown key; known keys: #{KEYS.keys.join(", ")}") }
      problem = knob.problem(value)
      raise error(where + [key], "#{problem}, got #{value.inspect}") if problem
    end

    def validate_endpoint_levels
      @data["endpoints"].each_with_index do |e, i|
        next unless e.is_a?(Hash) && e.key?("concurrency")

        levels = e["concurrency"]
        ok = levels.is_a?(Array) && levels.all? { |c| c.is_a?(Integer) && c.positive? }
        raise error(["endpoints", i, "concurrency"], "must be a list of whole numbers > 0, got #{levels.inspect}") unless ok
      end
    end

    def validate_list(key)
      (@data[key] || []).each_with_index do |v, i|
        msg = yield(v)
        raise error([key, i], "#{msg}, got #{v.inspect}") if msg
      end
    end

    def validate_servers
      @data["servers"].each_with_index do |entry, i|
        raise error(["servers", i], "must be a mapping like {server: puma, threads: 5}") unless entry.is_a?(Hash)

        klass = begin
          Servers.fetch(entry.fetch("server") { raise error(["servers", i], "missing key \"server\"") })
        rescue UnknownName => e
          raise error(["servers", i, "server"], e.message)
        end
        validate_entry_filters(entry, i)
        begin
          klass.new(Plan.for_clients(entry, 1)).validate!
        rescue ConfigError => e
          bad = entry.keys.find { |k| e.message.include?(k.inspect) } || "server"
          raise error(["servers", i, bad], e.message)
        end
      end
    end

    # Each services: entry names a registered service and only keys it takes.
    def validate_services
      (@data["services"] || []).each_with_index do |entry, i|
        raise error(["services", i], "must be a mapping like {service: upstream, delay_ms: 50}") unless entry.is_a?(Hash)

        klass = begin
          Services.fetch(entry.fetch("service") { raise error(["services", i], "missing key \"service\"") })
        rescue UnknownName => e
          raise error(["services", i, "service"], e.message)
        end
        begin
          klass.new(entry).validate!
        rescue ConfigError => e
          raise error(["services", i, entry.keys.find { |k| e.message.include?(k.inspect) } || "service"], e.message)
        end
      end
    end

    # An entry's endpoints: must name the suite's endpoints; its concurrency: whole numbers.
    def validate_entry_filters(entry, index)
      begin
        app_path(entry["app"]) if entry["app"]
      rescue ConfigError => e
        raise error(["servers", index, "app"], e.message.sub(/\A.*?: app /, ""))
      end
      known = endpoints.flat_map { |e| [e["path"], e["name"]] }
      Array(entry["endpoints"]).each do |e|
        unless known.include?(e)
          raise error(["servers", index, "endpoints"],
                      "#{e.inspect} is not one of the suite's endpoints (#{known.uniq.join(", ")})")
        end
      end
      return unless entry.key?("concurrency")
      return if entry["concurrency"].is_a?(Array) && entry["concurrency"].all? { |c| c.is_a?(Integer) && c.positive? }

      raise error(["servers", index, "concurrency"], "must be a list of whole numbers > 0, got #{entry["concurrency"].inspect}")
    end

    def validate_engine
      engine = Engines.fetch(@data["engine"] || KEYS["engine"].default)
      if @data["explain"] && engine::NAME != "native"
        raise error(["explain"], "needs engine: native (it stamps each request's X-Request-Start)")
      end

      sweeps = @data.key?("rates") || Array(@data["endpoints"]).any? { |e| e.is_a?(Hash) && e.key?("rates") }
      return unless sweeps && engine::NAME != "native"

      raise error(["rates"], "a rate sweep needs engine: native (open loop, latency from each request's scheduled send time)")
    rescue UnknownName => e
      raise error(["engine"], e.message)
    end

    def apply_defaults
      KEYS.each { |key, knob| @data[key] = knob.default if @data[key].nil? && !knob.default.nil? }
    end
  end
end
