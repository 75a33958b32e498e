# frozen_string_literal: true

require "tmpdir"

module Workloads
  # The /db workload: a few rows read and written in a real database, through
  # the driver directly (no ORM, so every framework does the same work).
  # PostgreSQL when RACKBENCH_DATABASE_URL is set (the suite names the postgres
  # service), otherwise SQLite in the file RACKBENCH_SQLITE_PATH (the Runner puts
  # it in the run's folder). Connections come from a Pool, one per request in flight.
  #
  #   Workloads::Database.visit  # => "db sqlite: updated row 17, read 10 rows"
  module Database
    URL_ENV = "RACKBENCH_DATABASE_URL"
    SQLITE_ENV = "RACKBENCH_SQLITE_PATH"
    ROWS = 100
    READ_ROWS = 10

    module_function

    def kind
      ENV[URL_ENV] ? "postgresql" : "sqlite"
    end

    # Adds a hit to one row, then reads the ten rows from it on: one write, one read.
    def visit
      id = rand(1..ROWS)
      rows = POOL.with { |db| db.visit(id, READ_ROWS) }
      raise "db #{kind}: read #{rows.size} rows, expected #{READ_ROWS}" unless rows.size == READ_ROWS

      "db #{kind}: updated row #{id}, read #{rows.size} rows"
    end

    POOL = Pool.new { kind == "postgresql" ? Postgres.new(ENV.fetch(URL_ENV)) : sqlite_class.new(sqlite_path) }

    # The sqlite3 gem's C extension on MRI; its JDBC driver on JRuby (sqlite_jdbc.rb).
    def sqlite_class
      return Sqlite unless RUBY_ENGINE == "jruby"

      require_relative "sqlite_jdbc"
      SqliteJdbc
    end

    def sqlite_path
      ENV.fetch(SQLITE_ENV) { File.join(Dir.tmpdir, "rackbench-app-#{Process.ppid}.sqlite3") }
    end

    # rows 1..ROWS, created once by whichever connection comes first.
    def names
      (1..ROWS).map { |i| [i, "row #{i}"] }
    end

    # SQLite through the sqlite3 gem, in WAL mode so readers do not wait for the writer.
    class Sqlite
      SCHEMA = "CREATE TABLE IF NOT EXISTS counters (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hits INTEGER NOT NULL)"

      def initialize(path)
        require "sqlite3"
        @db = SQLite3::Database.new(path)
        @db.busy_timeout = 10_000
        @db.execute("PRAGMA journal_mode = WAL")
        @db.execute("PRAGMA synchronous = NORMAL") # with WAL, what Rails sets for SQLite too
        @db.transaction(:immediate) do
          @db.execute(SCHEMA)
          Database.names.each { |id, name| @db.execute("INSERT OR IGNORE INTO counters VALUES (?, ?, 0)", [id, name]) }
        end
      end

      def close
        @db.close
      end

      def visit(id, count)
        @db.execute("UPDATE counters SET hits = hits + 1 WHERE id = ?", [id])
        @db.execute("SELECT id, name, hits FROM counters WHERE id >= ? ORDER BY id LIMIT ?", [[id, ROWS - count + 1].min, count])
      end
    end

    # PostgreSQL through the pg gem; an advisory lock serialises the first setup.
    class Postgres
      SETUP_LOCK = 4_242

      def initialize(url)
        require "pg"
        @conn = PG.connect(url)
        @conn.transaction do |c|
          c.exec("SELECT pg_advisory_xact_lock(#{SETUP_LOCK})")
          c.exec("CREATE TABLE IF NOT EXISTS counters (id integer PRIMARY KEY, name text NOT NULL, hits integer NOT NULL)")
          Database.names.each do |id, name|
            c.exec_params("INSERT INTO counters VALUES ($1, $2, 0) ON CONFLICT (id) DO NOTHING", [id, name])
          end
        end
      end

      def close
        @conn.close
      end

      def visit(id, count)
        @conn.exec_params("UPDATE counters SET hits = hits + 1 WHERE id = $1", [id])
        @conn.exec_params("SELECT id, name, hits FROM counters WHERE id >= $1 ORDER BY id LIMIT $2",
                          [[id, ROWS - count + 1].min, count]).values
      end
    end
  end
end
