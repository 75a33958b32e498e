# frozen_string_literal: true

require "json"
require "securerandom"

# 6: the store's own key for the digests of redaction markers
# (Store::Redaction, "[redacted:3fa2c1d0]"): random, made once, kept only
# here. Runs stored before kept their suites' secrets as typed: their suite
# file, settings, machine, configs, commands, reasons and log tails are
# redacted now (env names that look secret, URL passwords; an env_file's
# values were never stored), so an old store no longer holds them either.
Sequel.migration do
  up do
    create_table(:store_keys) do
      String :name, text: true, primary_key: true
      String :value, text: true, null: false
    end
    key = SecureRandom.hex(32)
    from(:store_keys).insert(name: "redaction", value: key)

    from(:runs).select(:id, :settings_json).all.each do |run|
      settings = JSON.parse(run[:settings_json])
      redaction = Rackbench::Store::Redaction.new(Rackbench::Suite::Secrets.new(settings.is_a?(Hash) ? settings : {}), key: key)
      scrub = lambda do |column, text|
        return text unless text

        json = %w[_json _command].any? { |tail| column.to_s.end_with?(tail) } && text.start_with?("[", "{")
        if json then JSON.generate(redaction.data(JSON.parse(text)))
        elsif column == :suite_yaml then redaction.yaml(text)
        else redaction.text(text)
        end
      end
      { runs: [{ id: run[:id] }, %i[suite_yaml settings_json machine_json reason]],
        planned_cells: [{ run_id: run[:id] }, %i[position config_json endpoint_json]],
        cells: [{ run_id: run[:id] },
                %i[config_json server_command engine_command log_tail reason]] }.each do |table, (where, columns)|
        key_columns = table == :planned_cells ? %i[run_id position] : %i[id]
        from(table).where(where).select(*(key_columns | columns)).all.each do |row|
          changed = (columns - key_columns).to_h { |c| [c, scrub.call(c, row[c])] }.reject { |c, v| v == row[c] }
          from(table).where(row.slice(*key_columns)).update(changed) unless changed.empty?
        end
      end
    end
  end

  down do
    drop_table(:store_keys)
  end
end
