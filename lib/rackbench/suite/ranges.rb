# frozen_string_literal: true

module Rackbench
  class Suite
    # The ranges of a suite's numbers, ports and paths wherever they appear
    # (the file, its endpoints, its smoke:/scale: blocks, the command line):
    # the bounds of its own keys are their Knobs' (Suite::KEYS: durations
    # finite and bounded, counts whole and bounded); connections of each
    # level, ports 1 to 65535 (a port is written into proxy config files and
    # command lines, so nothing else may reach them), request paths without
    # spaces or control characters. Included in Suite; every error names the
    # file, the line and the key (Suite#error).
    #
    #   duration_s: .inf          -> suite.yml:5: duration_s must be a finite number of seconds from ...
    #   servers: [{server: puma, port: 99999}]
    #                             -> suite.yml:9: servers.0.port must be a TCP port, a whole number from 1 to 65535, ...
    module Ranges
      MAX_CONNECTIONS = 100_000
      CONNECTIONS = Knob.new("concurrency", :whole, min: 1, max: MAX_CONNECTIONS, doc: "connections of one level")

      private

      # The file's values, its endpoints', and its smoke:/scale: blocks (ports: validate_port_ranges).
      def validate_all_ranges
        validate_ranges(@data)
        validate_endpoint_ranges
        %w[smoke scale].each { |block| validate_ranges(@data[block], [block]) if @data[block].is_a?(Hash) }
      end

      # The suite's own keys, those of its smoke:/scale: blocks, and command-line overrides.
      def validate_ranges(data, where = [])
        bounded_keys.each { |key| check(where + [key], data[key]) { |v| KEYS[key].problem(v) } if data.key?(key) }
        validate_rates(data, where)
        levels = data["concurrency"]
        levels = levels.transform_keys(&:to_s) if levels.is_a?(Hash) # a smoke:/scale: mapping {500: 100}
        (levels.is_a?(Hash) ? levels : Array(levels).each_with_index.to_h { |v, i| [i, v] }).each do |at, level|
          check(where + ["concurrency", at], level) { |v| CONNECTIONS.problem(v) }
        end
        check(where + ["drain_path"], data["drain_path"]) { |v| path_problem(v) } if data["drain_path"]
      end

      def validate_endpoint_ranges
        @data["endpoints"].each_with_index do |endpoint, i|
          path = endpoint.is_a?(Hash) ? endpoint["path"] : endpoint
          check(endpoint.is_a?(Hash) ? ["endpoints", i, "path"] : ["endpoints", i], path) { |v| path_problem(v) }
          next unless endpoint.is_a?(Hash)

          validate_rates(endpoint, ["endpoints", i])
          Array(endpoint["concurrency"]).each_with_index do |level, j|
            check(["endpoints", i, "concurrency", j], level) { |v| CONNECTIONS.problem(v) }
          end
        end
      end

      # Ports of servers and of the proxies in front of them.
      def validate_port_ranges
        @data["servers"].each_with_index do |entry, i|
          next unless entry.is_a?(Hash)

          check(["servers", i, "port"], entry["port"]) { |v| port_problem(v) } if entry.key?("port")
          proxy = entry["proxy"]
          next unless proxy.is_a?(Hash) && proxy.key?("port")

          check(["servers", i, "proxy", "port"], proxy["port"]) { |v| port_problem(v) }
        end
      end

      # Raises the error naming key_path when the block finds a problem with value.
      def check(key_path, value)
        problem = yield(value)
        raise error(key_path, "#{problem}, got #{value.inspect}") if problem
      end

      # The suite's keys whose knobs have bounds (durations, counts, the rate).
      def bounded_keys = KEYS.select { |_, knob| knob.min || knob.max || knob.above }.keys

      # rates: a list of offered rates, not with a fixed rate: beside it;
      # or (the suite's) auto, with the slo: that ends its search.
      def validate_rates(data, where)
        return unless data.key?("rates")

        rates = data["rates"]
        return validate_auto_rates(where) if rates == "auto"

        unless rates.is_a?(Array) && !rates.empty?
          raise error(where + ["rates"],
                      "must be a list of requests per second#{" or auto" if where.empty?}, got #{rates.inspect}")
        end
        if data.key?("rate") || @data.key?("rate")
          raise error(where + ["rates"],
                      "cannot be given with rate: (one fixed rate); choose one")
        end

        rates.each_with_index { |r, j| check(where + ["rates", j], r) { |v| KEYS["rate"].problem(v) } }
      end

      # rates: auto (Tune::AutoRates) searches each config's knee under slo:.
      def validate_auto_rates(where)
        raise error(where + ["rates"], "auto is the suite's, not an endpoint's: give the endpoint a list") unless where.empty?
        raise error(["rates"], "cannot be given with rate: (one fixed rate); choose one") if @data.key?("rate")
        if @data["slo"].nil?
          raise error(["rates"], "auto needs slo: the bound its search grows the rate to, e.g. slo: 'p99<=200ms'")
        end

        Slo.parse(@data["slo"])
      rescue ConfigError => e
        raise if e.file # the suite's own error, placed already

        raise error(["slo"], e.problem)
      end

      def port_problem(value) = Port.valid?(value) ? nil : Port::PROBLEM

      def path_problem(value)
        return "must be a path starting with /" unless value.is_a?(String) && value.start_with?("/")

        "must not contain spaces or control characters" if value.match?(/[ [:cntrl:]]/)
      end
    end
  end
end
