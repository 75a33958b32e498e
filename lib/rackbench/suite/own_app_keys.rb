# frozen_string_literal: true

module Rackbench
  class Suite
    # Validation of the keys of a user's own app (see OwnApp, Request, Traffic):
    #
    #   env: {RAILS_ENV: production}      # scalar values
    #   setup: [bin/rails db:prepare]     # commands
    #   ready_path: /up                   # a path
    #   endpoints: [{path: /items, method: POST, json: {...}}]
    #   mix: [{endpoint: /, weight: 80}, {endpoint: /items, weight: 20}]
    #   depends_on: [{name: postgres, port: 5432}]   # Dependency
    module OwnAppKeys
      private

      # env: scalar values; setup: commands; ready_path: a path; endpoints: real
      # requests (Request.problem); mix: weights of the suite's endpoints.
      def validate_own_app
        validate_env
        %w[setup reset].each do |key|
          validate_list(key) { |c| c.is_a?(String) && !c.strip.empty? ? nil : "must be a command (a string)" }
        end
        if @data["ready_path"] && !@data["ready_path"].start_with?("/")
          raise error(["ready_path"], "must be a path starting with /, got #{@data["ready_path"].inspect}")
        end

        validate_list("depends_on") { |entry| Dependency.problem(entry) }
        if @data["warmup"] && !%w[steady fixed].include?(@data["warmup"])
          raise error(["warmup"], "must be steady or fixed, got #{@data["warmup"].inspect}")
        end

        validate_requests
        validate_mix
        validate_engine_requests
      end

      def validate_env
        (@data["env"] || {}).each do |k, v|
          raise error(["env", k], "must be a string or number, got #{v.inspect}") if v.is_a?(Hash) || v.is_a?(Array) || v.nil?
        end
        validate_list("public_env") { |name| name.is_a?(String) && name.match?(/\A\w+\z/) ? nil : "must be an env name" }
        validate_env_file
      end

      # env_file: readable, NAME=VALUE lines (EnvFile), no name also in env:.
      def validate_env_file
        return unless @data["env_file"]

        vars = begin
          env_file
        rescue ConfigError => e
          raise error(["env_file"], e.message)
        end
        both = (@data["env"] || {}).keys.map(&:to_s) & vars.keys
        raise error(["env", both.first], "is also set in env_file #{@data["env_file"]}: keep one") unless both.empty?
      end

      def validate_requests
        @data["endpoints"].each_with_index do |e, i|
          msg = Request.problem(e)
          raise error(["endpoints", i, (e.keys & Request::KEYS).first || "path"], msg) if msg
        end
      end

      # What the suite's engine cannot send (Engines::Base#unsupported), by key.
      def validate_engine_requests
        engine = Engines.fetch(@data["engine"] || "native").new
        if @data["mix"] && (why = engine.unsupported(Traffic.new(endpoints.last)))
          raise error(["mix"], why)
        end

        @data["endpoints"].each_with_index do |e, i|
          next unless e.is_a?(Hash) && (why = engine.unsupported(Traffic.new({ "name" => e["path"] }.merge(e))))

          raise error(["endpoints", i], why)
        end
      rescue UnknownName
        nil # validate_engine names it
      end

      def validate_mix
        known = @data["endpoints"].flat_map { |e| e.is_a?(Hash) ? [e["name"], e["path"]] : [e] }.compact
        if known.include?(Traffic::MIX_NAME)
          raise error(["endpoints"], "an endpoint cannot be named #{Traffic::MIX_NAME.inspect} (the mix is)")
        end

        validate_list("mix") do |m|
          next "must be a mapping like {endpoint: /, weight: 80}" unless m.is_a?(Hash)

          unknown = m.keys - %w[endpoint weight]
          next "unknown key #{unknown.first.inspect} (it takes endpoint, weight)" unless unknown.empty?
          next "endpoint must be one of the suite's endpoints (#{known.uniq.join(", ")})" unless known.include?(m["endpoint"])

          m["weight"].is_a?(Integer) && m["weight"].positive? ? nil : "weight must be a whole number > 0"
        end
      end
    end
  end
end
