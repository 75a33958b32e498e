# frozen_string_literal: true

# 1: runs, their cells and the cells' resource samples (rackbench 0.1).
# JSON documents are text columns, timestamps ISO 8601 text, so SQLite and
# PostgreSQL hand back the same values.
Sequel.migration do
  change do
    create_table(:runs) do
      primary_key :id
      String :suite, text: true, null: false
      String :suite_path, text: true
      String :suite_yaml, text: true
      String :settings_json, text: true, null: false
      String :machine_json, text: true, null: false
      String :pinning_json, text: true
      String :dir, text: true, null: false
      String :status, text: true, null: false
      String :started_at, text: true, null: false
      String :finished_at, text: true
    end

    create_table(:cells) do
      primary_key :id
      foreign_key :run_id, :runs, null: false
      Integer :position, null: false
      String :server, text: true, null: false
      String :label, text: true, null: false
      String :config_json, text: true, null: false
      String :endpoint, text: true, null: false
      String :path, text: true, null: false
      Integer :concurrency, null: false
      String :engine, text: true, null: false
      String :status, text: true, null: false
      String :reason, text: true
      String :log_tail, text: true
      String :server_version, text: true
      String :server_command, text: true
      String :engine_command, text: true
      Float :requests_per_s
      Float :latency_mean_us
      Float :latency_p99_us
      Bignum :requests
      Bignum :errors
      String :result_json, text: true
      String :resources_json, text: true
      String :started_at, text: true, null: false
      String :finished_at, text: true
      index %i[run_id position], name: :cells_run
    end

    create_table(:samples) do
      foreign_key :cell_id, :cells, null: false
      Float :t_s, null: false
      Bignum :rss_bytes
      Bignum :pss_bytes
      Float :cpu_s
      Integer :processes
      Integer :threads
      index :cell_id, name: :samples_cell
    end
  end
end
