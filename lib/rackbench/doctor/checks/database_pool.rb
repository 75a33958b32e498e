# frozen_string_literal: true

module Rackbench
  module Doctor
    # A Rails connection pool smaller than the threads of a process: the
    # extra threads wait for a connection (rails#51073), so more threads
    # look worse than they are.
    class DatabasePool < Check
      NAME = "database_pool"

      def findings
        return [] unless files.rails?

        yml = DatabaseYml.new(files, env: subject.env)
        return [] unless yml.exist?

        env_name, = subject.app_env
        yml.pools(env_name).flat_map { |pool| short_of(pool, env_name) }
      end

      private

      def short_of(pool, env_name)
        return [] unless pool.connections

        over = shapes.select { |s| s.threads && s.threads > pool.connections }
        return [] if over.empty?

        most = over.max_by(&:threads)
        set = pool.line ? "pool #{pool.connections}" : "no pool: Rails's default #{pool.connections}"
        [warning("#{env_name} database #{pool.name}: #{set} is below #{most.label}'s #{most.threads} threads per process " \
                 "(#{most.where["threads"]}): threads wait for a connection",
                 where: files.where(DatabaseYml::NAME, pool.line),
                 fix: "pool: <%= ENV.fetch(\"RAILS_MAX_THREADS\") { #{most.threads} } %> (at least the threads per process)")]
      end
    end

    register("database_pool", DatabasePool)
  end
end
