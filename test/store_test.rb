# frozen_string_literal: true

require "test_helper"
require "sequel"
require_relative "store/store_examples"
require_relative "store/store_format_examples"
require_relative "store/store_measurement_examples"

module Rackbench
  # The embedded default: a SQLite file in the results folder.
  class StoreTest < Minitest::Test
    include StoreExamples
    include StoreFormatExamples
    include StoreMeasurementExamples

    def open_store = Store.new(tmpdir)

    def test_the_database_is_a_file_in_the_results_folder
      assert_equal File.join(tmpdir, Store::FILE), @store.path
      assert File.file?(@store.path)
    end

    def test_a_store_written_before_sequel_keeps_its_runs_and_gains_the_later_tables
      legacy = File.join(tmpdir, "legacy")
      db = Sequel.sqlite(File.join(FileUtils.mkdir_p(legacy).first, Store::FILE))
      Sequel::Migrator.run(db, File.dirname(Store::MIGRATIONS.first), target: 1)
      db.drop_table(:schema_info)
      db.run("PRAGMA user_version = 1")
      db[:runs].insert(suite: "old", settings_json: "{}", machine_json: "{}", dir: "", status: "finished",
                       started_at: "2025-01-01T00:00:00Z")
      db.disconnect

      store = Store.new(legacy)
      assert_equal Store::MIGRATIONS.size, store.schema_version
      assert_equal "old", store.run["suite"]
      assert_empty store.repeats(store.run["id"])
      store.close
    end

    def test_a_rate_sweep_stored_before_cell_keys_gets_its_rate_and_config_label_as_columns
      legacy = File.join(tmpdir, "legacy")
      db = Sequel.sqlite(File.join(FileUtils.mkdir_p(legacy).first, Store::FILE))
      Sequel::Migrator.run(db, File.dirname(Store::MIGRATIONS.first), target: 3)
      run_id = db[:runs].insert(suite: "old", settings_json: "{}", machine_json: "{}", dir: "", status: "finished",
                                started_at: "2025-01-01T00:00:00Z")
      [[{ "server" => "puma", "threads" => 4, "rate" => 200 }, "puma x0:4 @ 200 req/s"],
       [{ "server" => "webrick" }, "webrick"]].each_with_index do |(config, label), i|
        db[:cells].insert(run_id: run_id, position: i + 1, server: config["server"], label: label,
                          config_json: config.to_json, endpoint: "/hello", path: "/hello", concurrency: 4, engine: "native",
                          status: "failed", started_at: "2025-01-01T00:00:00Z")
      end
      db.disconnect

      store = Store.new(legacy)
      swept, plain = store.cells(run_id)
      assert_equal [200.0, "puma x0:4", { "server" => "puma", "threads" => 4 }],
                   [swept["offered_rate_per_s"], swept["config_label"], swept["config"]]
      assert_equal [nil, "webrick"], [plain["offered_rate_per_s"], plain["config_label"]]
      store.close
    end

    # A run stored by rackbench before compact windows (schema 5: three
    # cells of a traffic mix and a failed config, two windows each; made with
    # the code of that day): it opens, every window is converted, and reads
    # back exactly as that rackbench read it, so every report is unchanged.
    def test_a_run_stored_before_compact_windows_reads_back_as_it_was_stored
      dir = File.join(tmpdir, "schema5")
      FileUtils.cp_r(File.join(ROOT, "test", "fixtures", "store", "schema5"), dir)
      raw = Sequel.sqlite(File.join(dir, Store::FILE)) { |db| db[:repeats].order(:position, :idx).all }
      store = Store.new(dir)
      repeats = store.repeats(1).values.flatten
      assert_equal raw.size, repeats.size
      raw.zip(repeats).each do |row, repeat|
        assert_equal JSON.generate(Result.from_h(JSON.parse(row[:result_json])).to_h), JSON.generate(repeat.result.to_h)
        assert_equal row[:resources_json], JSON.generate(repeat.resources)
      end
      converted = Sequel.sqlite(File.join(dir, Store::FILE)) { |db| db[:repeats].select_map(:result_json) }
      assert converted.all? { |json| json.include?('"histogram":"HISTFAAA') }, "every window converted"
      assert_operator converted.sum(&:bytesize), :<, raw.sum { |r| r[:result_json].bytesize } / 3
      report = JSON.parse(Reports.fetch("json").new(store.run(1), store.measurements(1)).render)
      assert_equal(raw.map { |r| JSON.parse(r[:result_json])["histogram"] },
                   report["cells"].flat_map { |c| c["repeats"].map { |r| r["result"]["histogram"] } })
      store.close
    end

    def test_the_secrets_of_runs_stored_before_redaction_are_redacted_when_the_store_opens
      legacy = File.join(tmpdir, "legacy")
      db = Sequel.sqlite(File.join(FileUtils.mkdir_p(legacy).first, Store::FILE))
      Sequel::Migrator.run(db, File.dirname(Store::MIGRATIONS.first), target: 5)
      settings = { "env" => { "SECRET_KEY_BASE" => "skb-5e4d3c2b1a", "DATABASE_URL" => "postgres://a:pw-1f2e3d4c@h/db" } }
      id = db[:runs].insert(suite: "old", suite_yaml: settings.to_yaml, settings_json: settings.to_json, machine_json: "{}",
                            dir: "", status: "failed", reason: "cannot reach postgres://a:pw-1f2e3d4c@h/db",
                            started_at: "2025-01-01T00:00:00Z")
      db[:cells].insert(run_id: id, position: 1, server: "puma", label: "puma", config_json: "{}", endpoint: "/", path: "/",
                        concurrency: 1, engine: "native", status: "failed", log_tail: "SECRET_KEY_BASE=skb-5e4d3c2b1a",
                        server_command: '["puma","--secret","skb-5e4d3c2b1a"]', started_at: "2025-01-01T00:00:00Z")
      db.disconnect

      store = Store.new(legacy)
      text = File.binread(File.join(legacy, Store::FILE)) + File.binread("#{File.join(legacy, Store::FILE)}-wal")
      %w[skb-5e4d3c2b1a pw-1f2e3d4c].each { |secret| refute text.include?(secret), "#{secret} is still in the file's bytes" }
      run = store.run(id)
      assert_equal Psych.safe_load(run["suite_yaml"]), run["settings"], "the suite file and its settings, one marker a value"
      assert_equal ["puma", "--secret", run.dig("settings", "env", "SECRET_KEY_BASE")], store.cells(id).first["server_command"]
      store.close
    end

    def test_a_postgres_url_names_no_folder_and_hides_its_password
      location = Store::Location.new("postgres://bench:secret@db.example/results")
      assert location.postgres?
      assert_equal "postgres://bench:***@db.example/results", location.to_s
      assert_equal File.expand_path(Store::DEFAULT_DIR), location.dir
    end
  end
end
