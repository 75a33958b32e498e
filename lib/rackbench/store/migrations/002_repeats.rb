# frozen_string_literal: true

# 2: repeats (rackbench 0.2). Each repeat is written as it finishes, so an
# interrupted run keeps every measured window; the cell row follows when the
# cell is complete.
Sequel.migration do
  change do
    create_table(:repeats) do
      foreign_key :run_id, :runs, null: false
      Integer :position, null: false
      Integer :idx, null: false
      Integer :deployment
      Integer :round
      String :result_json, text: true, null: false
      String :resources_json, text: true
      String :noise_json, text: true
      Float :drain_s
      String :started_at, text: true
      primary_key %i[run_id position idx]
    end
  end
end
