# frozen_string_literal: true

require "psych"
require_relative "suite/ranges"
require_relative "suite/own_app_keys"
require_relative "suite/host_keys"
require_relative "suite/scaling"
require_relative "suite/keys"
require_relative "suite/env_file"
require_relative "suite/secrets"

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

    REQUIRED = %w[endpoints servers].freeze
    # Keys of older versions, refused with what replaced them.
    RETIRED = %w[min_repeats max_repeats].to_h do |key|
      [key, "was replaced by deployments (server starts), windows (per start) and max_deployments: a start, " \
            "not a window, is the unit of noise"]
    end.freeze

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
      @data["ratio"] ||= default_ratio
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

    # The env every server gets: the env_file's variables, then env:'s.
    def env = env_file.merge((@data["env"] || {}).to_h { |k, v| [k.to_s, v.to_s] })

    # The env_file's variables ({} without one), read from the file beside
    # the suite each time a Suite is made: never part of data, so never stored.
    def env_file
      @env_file ||= @data["env_file"] ? EnvFile.read(File.expand_path(@data["env_file"], File.dirname(path))) : {}
    end

    # Path of the config.ru to serve (a server entry may name its own app).
    def app_path(app = @data["app"])
      bundled = File.join(ROOT, "apps", app, "config.ru")
      return bundled if File.exist?(bundled)

      candidate = File.expand_path(app, File.dirname(path))
      candidate = File.join(candidate, "config.ru") if File.directory?(candidate)
      return candidate if File.exist?(candidate)

      raise error(["app"], "#{app.inspect} is neither a bundled app (#{Apps.names.join(", ")}) nor a config.ru")
    end

    # ConfigError naming file, line and key path, in its message and as its fields.
    def error(key_path, message)
      line = key_path && (@lines[key_path] || @lines[key_path[0, 1]])
      where = [path, line].compact.join(":")
      key = key_path&.join(".")
      ConfigError.new("#{where}:#{" #{key}" if key} #{message}", key: key, file: path, line: line, problem: message)
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

    # What the key schema (KEYS) cannot say: the drain's path is a path.
    def validate_statistics(data, where = [])
      drain_path = data["drain_path"]
      return if drain_path.nil? || drain_path.start_with?("/")

      raise error(where + ["drain_path"], "must be a path starting with /, got #{drain_path.inspect}")
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
      raise error(where + [key], RETIRED[key]) if RETIRED.key?(key)

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
          raise error(["servers", i, e.key || "server"], e.message)
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
          raise error(["services", i, e.key || "service"], e.message)
        end
      end
    end

    # An entry's endpoints: must name the suite's endpoints; its concurrency: whole numbers.
    def validate_entry_filters(entry, index)
      begin
        app_path(entry["app"]) if entry["app"]
      rescue ConfigError => e
        raise error(["servers", index, "app"], e.problem)
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

    # ratio: is settled last (#default_ratio), once requests: is known.
    def apply_defaults
      KEYS.each { |key, knob| @data[key] = knob.default if key != "ratio" && @data[key].nil? && !knob.default.nil? }
    end

    # A duet's windows must end together. Windows of a number of requests
    # (requests:, ab -n) do not: the faster side finishes first and the
    # slower one runs on alone with the CPU to itself, so the ratio read
    # comes out nearer 1 than the costs are ((1 + r) / 2 for costs r apart).
    # Such a suite measures its ratios in turns unless it says ratio: duet.
    def default_ratio = @data["requests"] ? "turns" : KEYS["ratio"].default
  end
end
