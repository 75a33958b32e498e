# frozen_string_literal: true

# 5: the per-cell resource samples table goes. Since rackbench 0.2 every
# window keeps its own resources (the repeats' resources_json: CPU, PSS, the
# workers' memory series), and nothing wrote or read this table any more.
Sequel.migration do
  up do
    drop_table(:samples)
  end

  down do
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
