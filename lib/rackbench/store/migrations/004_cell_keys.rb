# frozen_string_literal: true

require "json"

# 4: cell identity as columns (CellKey). A run's planned cells are stored
# when it is created (planned_cells), so a resumed run measures them as
# planned and an unfinished cell still has its label; a cell row carries its
# offered rate, its config's label and its variant, so no label is parsed.
# Rows stored before: the offered rate moves out of the config (where
# rackbench 0.2 put it) into offered_rate_per_s, and config_label is rendered
# again by the config's adapter (the label as it is when the adapter is gone).
Sequel.migration do
  up do
    create_table(:planned_cells) do
      foreign_key :run_id, :runs, null: false
      Integer :position, null: false
      String :server, text: true, null: false
      String :label, text: true, null: false
      String :config_label, text: true, null: false
      String :config_json, text: true, null: false
      String :endpoint, text: true, null: false
      String :path, text: true, null: false
      String :endpoint_json, text: true, null: false
      Integer :concurrency, null: false
      Float :offered_rate_per_s
      Integer :variant, null: false
      primary_key %i[run_id position]
    end

    alter_table(:cells) do
      add_column :offered_rate_per_s, Float
      add_column :config_label, String, text: true
      add_column :variant, Integer
    end

    from(:cells).select(:id, :label, :config_json).each do |row|
      config = JSON.parse(row[:config_json])
      rate = config.delete("rate")
      label = begin
        rate ? Rackbench::Servers.fetch(config["server"]).new(config).label : row[:label]
      rescue Rackbench::Error
        row[:label]
      end
      from(:cells).where(id: row[:id]).update(offered_rate_per_s: rate, config_label: label,
                                              config_json: config.to_json)
    end
  end

  down do
    from(:cells).exclude(offered_rate_per_s: nil).select(:id, :config_json, :offered_rate_per_s).each do |row|
      config = JSON.parse(row[:config_json]).merge("rate" => row[:offered_rate_per_s])
      from(:cells).where(id: row[:id]).update(config_json: config.to_json)
    end
    alter_table(:cells) do
      drop_column :offered_rate_per_s
      drop_column :config_label
      drop_column :variant
    end
    drop_table(:planned_cells)
  end
end
