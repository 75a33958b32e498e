# frozen_string_literal: true

module Rackbench
  # What every Store does, whichever database holds it: included by the
  # SQLite tests (test/store_test.rb) and the PostgreSQL ones
  # (test/integration/store_postgres_test.rb), which define open_store.
  module StoreExamples
    def setup
      super
      @store = open_store
      @suite = Suite.load("quick")
    end

    def teardown
      @store&.close
      super
    end

    def new_run(store = @store)
      store.create_run(suite: @suite, settings: @suite.data, machine: { "cores" => 2 }, pinning: {})
    end

    def cell(position, rps)
      { position: position, server: "puma", label: "puma x0:4", config: { "server" => "puma" }, endpoint: "/hello",
        path: "/hello", concurrency: 4, engine: "wrk", status: "ok", requests_per_s: rps, errors: 0,
        requests: 5_000_000_000, server_command: %w[puma -b x], result: { "requests" => 10 },
        started_at: "2026-01-01T00:00:00Z" }
    end

    def repeat(index, rps)
      result = Result.new(engine: "native", requests: 1000, duration_s: 1000 / rps, requests_per_s: rps,
                          errors: { "connect" => index }, latency_us: { "mean" => 900.5, "p99" => 4000 },
                          histogram: [[100, 400], [1000, 590], [4000, 10]], series: [])
      Measurement::Repeat.new(index: index, deployment: 1, round: index, result: result, noise: { "steal" => 0.0 },
                              resources: { "pss_max_bytes" => 3 * (2**31) }, drain_s: 0.25, started_at: "2026-01-01T00:00:01Z")
    end

    def test_the_schema_is_at_the_last_migration
      assert_equal Store::MIGRATIONS.size, @store.schema_version
    end

    def test_a_run_keeps_its_suite_file_and_gets_its_own_folder
      run = new_run
      assert_equal "quick", run["suite"]
      assert_equal File.read(@suite.path), run["suite_yaml"]
      assert File.directory?(run["dir"])
      assert_equal "running", run["status"]
      assert_equal({ "cores" => 2 }, run["machine"])
    end

    def test_cells_read_back_as_they_were_written
      run = new_run
      id = @store.add_cell(run["id"], cell(1, 123.5))
      stored = @store.cells(run["id"]).first
      assert_equal id, stored["id"]
      assert_equal 123.5, stored["requests_per_s"]
      assert_equal 5_000_000_000, stored["requests"], "counts beyond 32 bits"
      assert_equal({ "server" => "puma" }, stored["config"])
      assert_equal %w[puma -b x], stored["server_command"]
    end

    def test_repeats_read_back_as_measurements
      run = new_run
      [100.0, 110.0].each_with_index { |rps, i| @store.add_repeat(run["id"], 1, repeat(i + 1, rps)) }
      @store.add_cell(run["id"], cell(1, 105.0))
      measurement = @store.measurements(run["id"]).first
      assert_equal [1, 2], measurement.repeats.map(&:index)
      assert_equal [[100, 800], [1000, 1180], [4000, 20]], measurement.histogram
      assert_equal 3 * (2**31), measurement.repeats.first.resources["pss_max_bytes"]
      assert_equal 0.25, measurement.repeats.last.drain_s
    end

    def test_an_interrupted_run_keeps_the_cells_it_finished
      run = new_run
      @store.add_cell(run["id"], cell(1, 10.0))
      reopened = open_store
      assert_equal 1, reopened.cells(run["id"]).size
      assert_equal "running", reopened.run(run["id"])["status"]
      reopened.close
    end

    def test_a_finished_run_says_so_and_runs_are_listed_newest_first
      first = new_run
      second = new_run
      @store.finish_run(first["id"], "finished")
      assert_equal "finished", @store.run(first["id"])["status"]
      assert_equal([second["id"], first["id"]], @store.runs.map { |r| r["id"] })
      assert_equal second["id"], @store.run["id"], "the latest run is the default"
    end

    def test_a_run_stores_the_cells_it_planned_when_it_is_created
      plan = Plan.new(@suite)
      run = @store.create_run(suite: @suite, settings: @suite.data, machine: {}, pinning: {}, plan: plan)
      stored = Plan.stored(@suite, @store.planned_cells(run["id"]))
      assert_equal plan.cells.map(&:key), stored.cells.map(&:key)
      assert_equal plan.cells.map(&:endpoint), stored.cells.map(&:endpoint), "the endpoint entry as the suite had it"
      assert_equal plan.groups.map(&:server_config), stored.groups.map(&:server_config)
    end

    def test_an_unfinished_cell_shows_the_key_it_was_planned_with
      plan = Plan.new(@suite)
      run = @store.create_run(suite: @suite, settings: @suite.data, machine: {}, pinning: {}, plan: plan)
      @store.add_repeat(run["id"], 2, repeat(1, 100.0))
      unfinished = @store.measurements(run["id"]).first
      assert_equal "incomplete", unfinished.status
      planned = plan.cells[1]
      assert_equal [planned.label, planned.endpoint["path"], planned.concurrency, 1],
                   [unfinished.label, unfinished.path, unfinished.concurrency, unfinished.variant]
    end

    def test_an_unknown_run_is_a_clear_error
      error = assert_raises(ConfigError) { @store.run(99) }
      assert_match "no run 99 in #{@store.path}", error.message
      assert_match "run id must be a number", assert_raises(ConfigError) { @store.run("x") }.message
    end
  end
end
