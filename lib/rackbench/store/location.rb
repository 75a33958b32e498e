# frozen_string_literal: true

require "fileutils"
require "sequel/core"

module Rackbench
  class Store
    # Where a Store keeps its results, from --results or RACKBENCH_RESULTS:
    #
    #   rackbench-results                   a folder: rackbench.sqlite3 in it, raw output beside
    #   postgres://user@host/db             PostgreSQL: the rows; raw output in a local folder
    #                                       (RACKBENCH_RESULTS_DIR, default rackbench-results)
    #
    # The database holds everything reports read; the folder holds each run's
    # engine output and server logs (runs/RUN_ID/), on the machine that ran it.
    class Location
      URL = %r{\Apostgres(?:ql)?://}
      DIR_ENV = "RACKBENCH_RESULTS_DIR"
      HELP = "results folder or postgres:// URL (default: $RACKBENCH_RESULTS, else #{DEFAULT_DIR})".freeze

      def self.default = ENV.fetch("RACKBENCH_RESULTS", DEFAULT_DIR)

      attr_reader :dir

      def initialize(spec)
        spec = spec.to_s
        raise ConfigError, "--results: give a folder or a postgres:// URL" if spec.empty?

        @url = spec if spec.match?(URL)
        @dir = File.expand_path(@url ? ENV.fetch(DIR_ENV, DEFAULT_DIR) : spec)
      end

      def postgres? = !@url.nil?

      # The SQLite file, or the URL without its password: for messages and `rackbench report --list`.
      def to_s = postgres? ? @url.sub(%r{(://[^:/@]+):[^@]*@}, '\1:***@') : File.join(dir, FILE)

      def connect
        FileUtils.mkdir_p(dir)
        return sqlite unless postgres?

        require "pg"
        Sequel.connect(@url.sub(/\Apostgresql:/, "postgres:")).tap(&:test_connection)
      rescue LoadError => e
        raise ConfigError, "results store #{self}: the pg gem is missing (#{e.message})"
      rescue Sequel::DatabaseConnectionError => e
        raise ConfigError, "results store #{self}: cannot connect (#{e.message.lines.first.strip})"
      end

      private

      # Write-ahead log: a commit is whole or absent after a kill -9 at any
      # moment, and reports can read while a run writes. synchronous FULL
      # makes each commit (a repeat, a finished cell) survive a power cut too.
      # secure_delete: what an update replaces is overwritten, so a value the
      # store redacted (migration 6) leaves no copy in a free page.
      def sqlite
        Sequel.sqlite(File.join(dir, FILE), timeout: 5000, synchronous: :full,
                                            after_connect: lambda { |conn|
                                              conn.execute("PRAGMA journal_mode = WAL")
                                              conn.execute("PRAGMA secure_delete = ON")
                                            })
      end
    end
  end
end
