# frozen_string_literal: true

require "test_helper"

module Rackbench
  class StoreTest < Minitest::Test
    def setup
      @store = Store.new(tmpdir)
      @suite = Suite.load("quick")
    end

    def teardown
      @store.close
      super
    end

    def new_run
      @store.create_run(suite: @suite, settings: @suite.data, machine: { "cores" => 2 }, pinning: {})
    end

    def cell(position, rps)
      { position: position, server: "puma", label: "puma x0:4", config: { "server" => "puma" }, endpoint: "/hello",
        path: "/hello", concurrency: 4, engine: "wrk", status: "ok", requests_per_s: rps, errors: 0,
        server_command: %w[puma -b x], result: { "requests" => 10 }, started_at: "2026-01-01T00:00:00Z" }
    end

    def test_the_schema_is_versioned
      assert_equal Store::MIGRATIONS.size, @store.schema_version
    end

    def test_a_run_keeps_its_suite_file_and_gets_its_own_folder
      run = new_run
      assert_equal "quick", run["suite"]
      assert_equal File.read(@suite.path), run["suite_yaml"]
      assert File.directory?(run["dir"])
      assert_equal "running", run["status"]
    end

    def test_cells_and_samples_read_back_as_they_were_written
      run = new_run
      sample = Sampler::Sample.new(t_s: 0.5, rss_bytes: 100, pss_bytes: 80, cpu_s: 1.5, processes: 2, threads: 9)
      id = @store.add_cell(run["id"], cell(1, 123.5), [sample])
      stored = @store.cells(run["id"]).first
      assert_equal 123.5, stored["requests_per_s"]
      assert_equal({ "server" => "puma" }, stored["config"])
      assert_equal %w[puma -b x], stored["server_command"]
      assert_equal 80, @store.samples(id).first["pss_bytes"]
    end

    def test_an_interrupted_run_keeps_the_cells_it_finished
      run = new_run
      @store.add_cell(run["id"], cell(1, 10.0))
      reopened = Store.new(tmpdir)
      assert_equal 1, reopened.cells(run["id"]).size
      assert_equal "running", reopened.run(run["id"])["status"]
      reopened.close
    end

    def test_the_latest_run_is_the_default
      new_run
      second = new_run
      assert_equal second["id"], @store.run["id"]
    end

    def test_an_unknown_run_is_a_clear_error
      error = assert_raises(ConfigError) { @store.run(99) }
      assert_match "no run 99 in", error.message
    end
  end
end
