# frozen_string_literal: true

module Workloads
  module Database
    # SQLite on JRuby, where the sqlite3 gem's C extension cannot load: the
    # same statements as Database::Sqlite, through the JDBC driver of the
    # jdbc-sqlite3 gem (bin/setup installs it beside the JRuby servers).
    # WAL mode, synchronous NORMAL and a 10 s busy timeout, as Sqlite sets them.
    # Ruby 2.6 (JRuby 9.3).
    class SqliteJdbc
      def initialize(path)
        # The driver unpacks its native library into java.io.tmpdir, where a JVM
        # that does not exit cleanly (Trinidad's) leaves it: beside the database.
        java.lang.System.setProperty("org.sqlite.tmpdir", File.dirname(File.expand_path(path)))
        require "jdbc/sqlite3"
        Jdbc::SQLite3.load_driver
        props = java.util.Properties.new
        { "journal_mode" => "WAL", "synchronous" => "NORMAL", "busy_timeout" => "10000" }.each { |k, v| props.setProperty(k, v) }
        # The driver itself: java.sql.DriverManager does not see classes JRuby loaded.
        @conn = Java::OrgSqlite::JDBC.new.connect("jdbc:sqlite:#{path}", props)
        create_rows
        @update = @conn.prepareStatement("UPDATE counters SET hits = hits + 1 WHERE id = ?")
        @select = @conn.prepareStatement("SELECT id, name, hits FROM counters WHERE id >= ? ORDER BY id LIMIT ?")
      end

      def close
        @conn.close
      end

      def visit(id, count)
        @update.setInt(1, id)
        @update.executeUpdate
        @select.setInt(1, [id, ROWS - count + 1].min)
        @select.setInt(2, count)
        rows = []
        result = @select.executeQuery
        rows << [result.getInt(1), result.getString(2), result.getInt(3)] while result.next
        result.close
        rows
      end

      private

      def create_rows
        statement = @conn.createStatement
        statement.execute("BEGIN IMMEDIATE")
        statement.execute(Sqlite::SCHEMA)
        insert = @conn.prepareStatement("INSERT OR IGNORE INTO counters VALUES (?, ?, 0)")
        Database.names.each do |id, name|
          insert.setInt(1, id)
          insert.setString(2, name)
          insert.executeUpdate
        end
        statement.execute("COMMIT")
      ensure
        insert&.close
        statement&.close
      end
    end
  end
end
