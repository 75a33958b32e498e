# frozen_string_literal: true

module Rackbench
  module Doctor
    # More connections than the suite's PostgreSQL accepts: workers x threads
    # per config, and the sum of the configs a level deploys side by side
    # (interleaved and random orders deploy every config of a level at once).
    class DatabaseConnections < Check
      NAME = "database_connections"

      def findings
        return [] unless suite

        (suite["services"] || []).each_with_index.flat_map do |entry, i|
          next [] unless entry["service"] == "postgres"

          limit = entry.fetch("max_connections") { Services.fetch("postgres").new(entry).setting(:max_connections) }
          where = subject.where_key(["services", i, "max_connections"])
          per_config(limit, where) + side_by_side(limit, where)
        end
      end

      private

      def per_config(limit, where)
        shapes.select { |s| s.connections && s.connections > limit }.map do |s|
          warning("#{s.label} holds up to #{s.connections} connections (#{s.processes} processes x #{s.threads} threads); " \
                  "postgres accepts #{limit}", where: where, fix: "max_connections: #{s.connections} or more on the service")
        end
      end

      def side_by_side(limit, where)
        return [] if suite["order"] == "sequential" || shapes.size < 2 || shapes.any? { |s| s.connections.nil? }

        total = shapes.sum(&:connections)
        return [] if total <= limit || shapes.any? { |s| s.connections > limit }

        [warning("the #{shapes.size} configs, deployed side by side, hold up to #{total} connections; postgres accepts #{limit}",
                 where: where, fix: "max_connections: #{total} on the service, or order: sequential")]
      end
    end

    register("database_connections", DatabaseConnections)
  end
end
