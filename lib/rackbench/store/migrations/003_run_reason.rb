# frozen_string_literal: true

# 3: why a run failed (a service that could not start, a full results disk),
# beside its status: finished, failed or interrupted (a signal).
Sequel.migration do
  change do
    add_column :runs, :reason, String, text: true
  end
end
