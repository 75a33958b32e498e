# frozen_string_literal: true

module Rackbench
  class Suite
    # The part of a smoke:/scale: block that rewrites values for the endpoints
    # it names only (Suite::Scaling applies the rest):
    #
    #   scale:
    #     endpoints:
    #       sleep: {concurrency: {100: 20, 500: 100}}   # 000: hello world keeps its 100 clients
    #
    # The changes it makes carry the endpoint ("endpoint" => "sleep"), so a
    # report says where and a claim on another endpoint is not remapped.
    module EndpointScaling
      private

      # endpoints: {NAME: {KEY: {from: to}}}: each NAME one of the suite's endpoints.
      def validate_endpoint_scaling(block, per_endpoint)
        per_endpoint.each do |name, mappings|
          where = [block, "endpoints", name]
          unless endpoint_index(name)
            known = @data["endpoints"].map { |e| e.is_a?(Hash) ? e["name"] || e["path"] : e }
            raise error(where, "is not one of the suite's endpoints (#{known.join(", ")})")
          end
          raise error(where, "must map keys to mappings, like {concurrency: {500: 100}}") unless mappings.is_a?(Hash)

          mappings.each do |key, mapping|
            raise error(where + [key], "must be a mapping like {500: 100}, got #{mapping.inspect}") unless mapping.is_a?(Hash)

            validate_mapping(where + [key], mapping)
            next unless key == "concurrency"

            mapping.each { |from, to| check(where + [key, from], to) { |v| Ranges::CONNECTIONS.problem(v) } }
          end
        end
      end

      # Rewrites keys only for the endpoints named: the endpoint's own levels
      # (it takes the suite's when it has none) and the server entries that
      # serve nothing but scaled endpoints; an entry that sets the key for a
      # scaled endpoint and another one cannot be split, and is refused.
      def map_for_endpoints(per_endpoint)
        per_endpoint.flat_map do |name, mappings|
          index = endpoint_index(name)
          endpoint = @data["endpoints"][index]
          endpoint = @data["endpoints"][index] = { "path" => endpoint } unless endpoint.is_a?(Hash)
          names = [endpoint["name"], endpoint["path"]].compact
          mappings.flat_map do |key, mapping|
            changes = []
            endpoint[key] = @data[key].dup if key == "concurrency" && !endpoint.key?(key)
            remap(endpoint, key, mapping, changes)
            entries_serving(name, names, key).each { |entry| remap(entry, key, mapping, changes) }
            changes.uniq.map { |c| c.merge("endpoint" => endpoint["name"] || endpoint["path"]) }
          end
        end
      end

      # The server entries that set key and serve only the endpoint (names: its name and path).
      def entries_serving(name, names, key)
        @data["servers"].each_with_index.filter_map do |entry, i|
          served = Array(entry["endpoints"])
          next if !entry.key?(key) || (served.any? && !served.intersect?(names))
          next entry if served.any? && (served - names).empty?

          raise error(["servers", i, key], "cannot be scaled for #{name} alone: the entry serves other endpoints " \
                                           "too (give #{name} an entry of its own)")
        end
      end

      def endpoint_index(name)
        @data["endpoints"].index { |e| e.is_a?(Hash) ? [e["name"], e["path"]].include?(name) : e == name }
      end
    end
  end
end
