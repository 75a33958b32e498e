# frozen_string_literal: true

module Rackbench
  class Suite
    # The ranges of a suite's numbers, ports and paths, checked after their
    # types (Suite::KEYS): durations finite and bounded, counts whole and
    # bounded, ports 1 to 65535 (a port is written into proxy config files
    # and command lines, so nothing else may reach them), request paths
    # without spaces or control characters. Included in Suite; every error
    # names the file, the line and the key (Suite#error).
    #
    #   duration_s: .inf          -> suite.yml:5: duration_s must be a finite number of seconds from ...
    #   servers: [{server: puma, port: 99999}]
    #                             -> suite.yml:9: servers.0.port must be a TCP port, a whole number from 1 to 65535, ...
    module Ranges
      MAX_DURATION_S = 86_400 # one day: a cell, a warm-up, a timeout
      MAX_CONNECTIONS = 100_000
      MAX_CLIENT_THREADS = 256 # rackbench-load's own limit
      MAX_REQUESTS = 1_000_000_000

      # key => [lowest allowed (inclusive unless :above), highest]
      DURATIONS = {
        "duration_s" => [:above, 0], "warmup_s" => [0], "timeout_s" => [:above, 0],
        "ready_timeout_s" => [:above, 0], "drain_timeout_s" => [0], "max_cell_s" => [:above, 0]
      }.freeze
      COUNTS = { "requests" => MAX_REQUESTS, "client_threads" => MAX_CLIENT_THREADS }.freeze

      private

      # The file's values, its endpoints', and its smoke:/scale: blocks (ports: validate_port_ranges).
      def validate_all_ranges
        validate_ranges(@data)
        validate_endpoint_ranges
        %w[smoke scale].each { |block| validate_ranges(@data[block], [block]) if @data[block].is_a?(Hash) }
      end

      # The suite's own keys, those of its smoke:/scale: blocks, and command-line overrides.
      def validate_ranges(data, where = [])
        DURATIONS.each { |key, (low, _)| check(where + [key], data[key]) { |v| duration_problem(v, low) } if data.key?(key) }
        COUNTS.each { |key, max| check(where + [key], data[key]) { |v| count_problem(v, 1, max) } if data.key?(key) }
        check(where + ["rate"], data["rate"]) { |v| rate_problem(v) } if data.key?("rate")
        validate_rates(data, where)
        levels = data["concurrency"]
        levels = levels.transform_keys(&:to_s) if levels.is_a?(Hash) # a smoke:/scale: mapping {500: 100}
        (levels.is_a?(Hash) ? levels : Array(levels).each_with_index.to_h { |v, i| [i, v] }).each do |at, level|
          check(where + ["concurrency", at], level) { |v| count_problem(v, 1, MAX_CONNECTIONS) }
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
            check(["endpoints", i, "concurrency", j], level) { |v| count_problem(v, 1, MAX_CONNECTIONS) }
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

      def duration_problem(value, low)
        ok = value.is_a?(Numeric) && value.to_f.finite? && value <= MAX_DURATION_S &&
             (low == :above ? value.positive? : value >= low)
        return if ok

        "must be a finite number of seconds #{low == :above ? "above 0" : "from 0"} up to #{MAX_DURATION_S}"
      end

      def count_problem(value, low, high)
        "must be a whole number from #{low} to #{high}" unless value.is_a?(Integer) && value.between?(low, high)
      end

      # rates: a list of offered rates, not with a fixed rate: beside it.
      def validate_rates(data, where)
        return unless data.key?("rates")

        rates = data["rates"]
        unless rates.is_a?(Array) && !rates.empty?
          raise error(where + ["rates"],
                      "must be a list of requests per second, got #{rates.inspect}")
        end
        if data.key?("rate") || @data.key?("rate")
          raise error(where + ["rates"],
                      "cannot be given with rate: (one fixed rate); choose one")
        end

        rates.each_with_index { |r, j| check(where + ["rates", j], r) { |v| rate_problem(v) } }
      end

      def rate_problem(value)
        return if value.is_a?(Numeric) && value.to_f.finite? && value.positive?

        "must be a finite number of requests per second above 0"
      end

      def port_problem(value) = Port.valid?(value) ? nil : Port::PROBLEM

      def path_problem(value)
        return "must be a path starting with /" unless value.is_a?(String) && value.start_with?("/")

        "must not contain spaces or control characters" if value.match?(/[ [:cntrl:]]/)
      end
    end
  end
end
