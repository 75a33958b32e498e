# frozen_string_literal: true

require "test_helper"
require "sequel"
require_relative "../store/store_examples"
require_relative "../store/store_format_examples"
require_relative "../store/store_measurement_examples"
require_relative "../reports/seed_fixtures"

module Rackbench
  # The shared store: the same examples as SQLite's, against a real
  # PostgreSQL (Debian's, a throwaway cluster the test starts once), each test
  # in a database of its own; and a run moved from SQLite renders the same.
  class StorePostgresTest < Minitest::Test
    include StoreExamples
    include StoreFormatExamples
    include StoreMeasurementExamples

    # One cluster for the whole class, stopped when the class's tests end
    # (Minitest runs a class's tests together): left running, it would be a
    # leftover process to every later test of the same process.
    def self.server
      @server ||= begin
        supervisor = Supervisor.new
        service = Services.fetch("postgres").new("service" => "postgres", "settings" => { "fsync" => "off" })
        dir = Dir.mktmpdir("rackbench-store-pg")
        url = service.start(supervisor, dir).fetch(service.class::ENV_KEY)
        @stop = lambda do
          service.stop(supervisor)
          supervisor.stop_all
          FileUtils.rm_rf(dir)
        end
        url
      end
    end

    def self.run(*)
      super
    ensure
      @stop&.call
      @stop = nil
      @server = nil
    end

    def setup
      why = Services.fetch("postgres").unavailable_reason
      skip "PostgreSQL cannot run here: #{why}" if why
      @url = fresh_database
      super
    end

    def open_store = Store.new(@url)

    def fresh_database
      name = "store_#{name_suffix}"
      admin = Sequel.connect(self.class.server.sub("postgresql:", "postgres:"))
      admin.run("CREATE DATABASE #{name}")
      admin.disconnect
      self.class.server.sub(%r{/postgres\z}, "/#{name}")
    end

    def self.next_database = @databases = (@databases || 0) + 1
    def name_suffix = "#{Process.pid}_#{self.class.next_database}"

    def test_the_raw_output_folder_is_local_and_named_by_the_environment
      ENV[Store::Location::DIR_ENV] = File.join(tmpdir, "raw")
      store = open_store
      assert_equal File.join(tmpdir, "raw", "runs", new_run(store)["id"].to_s), store.run["dir"]
      store.close
    ensure
      ENV.delete(Store::Location::DIR_ENV)
    end

    def test_a_run_written_to_sqlite_renders_identically_from_postgres
      sqlite = Store.new(File.join(tmpdir, "sqlite"))
      run = new_run(sqlite)
      repeats = [100.0, 104.0, 98.0].each_with_index.map { |rps, i| repeat(i + 1, rps) }
      repeats.each { |r| sqlite.add_repeat(run["id"], 1, r) }
      sqlite.add_cell(run["id"], cell(1, 100.0))
      sqlite.finish_run(run["id"], "finished")

      moved = @store.import_run(sqlite, run["id"])
      %w[table markdown csv json].each do |format|
        expected = Reports.fetch(format).new(sqlite.run(run["id"]), sqlite.measurements(run["id"])).render
        assert_equal expected, Reports.fetch(format).new(moved, @store.measurements(moved["id"])).render, format
      end
      assert_equal(sqlite.repeats(run["id"]).fetch(1).map(&:requests_per_s),
                   @store.repeats(moved["id"]).fetch(1).map(&:requests_per_s))
      sqlite.close
    end

    def test_the_commands_read_the_store_named_by_the_environment
      run = new_run
      @store.finish_run(run["id"], "finished")
      ENV["RACKBENCH_RESULTS"] = @url
      status, out, err = run_cli("report", "--list")
      assert_equal 0, status, err
      assert_match(/\A\s*#{run["id"]}\s+quick\s+finished/, out)
    ensure
      ENV.delete("RACKBENCH_RESULTS")
    end

    def test_an_unreachable_database_is_one_clear_error
      closed = self.class.server.sub(/:(\d+)/) { ":#{Integer(::Regexp.last_match(1)) + 1}" }
      error = assert_raises(ConfigError) { Store.new(closed.sub("postgres@", "postgres:pw@")) }
      assert_match(/results store postgresql:.*:\*\*\*@.*cannot connect/, error.message)
      refute_includes error.message, ":pw@"
    end
  end
end
