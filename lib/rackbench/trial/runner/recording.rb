# frozen_string_literal: true

module Rackbench
  class Runner
    # The Runner's records: a cell finished or failed becomes its stored row
    # (key columns, versions, commands, summary figures) and a Measurement
    # for the listener.
    module Recording
      private

      def finish_cell(cell)
        state = @states[cell.index]
        return if state.done

        state.done = true
        record(cell, "ok", state.repeats)
      end

      def fail_cell(cell, reason, log_tail = nil, trial = nil)
        state = @states[cell.index]
        return if state.done

        state.done = true
        record(cell, "failed", state.repeats, reason: reason, log_tail: log_tail, trial: trial)
      end

      # The cell's row: its key's columns (label rendered from it) and how it went.
      def record(cell, status, repeats, reason: nil, log_tail: nil, trial: nil)
        trial ||= @live[group_key(cell)]&.trial
        row = cell.key.columns.merge(
          "position" => cell.index, "engine" => @engine.name, "status" => status, "reason" => reason, "log_tail" => log_tail,
          "server_version" => trial&.server_version || Servers.fetch(cell.server_name).version,
          "server_command" => trial&.commands, "engine_command" => repeats.last&.result&.command,
          "started_at" => repeats.first&.started_at || Time.now.utc.iso8601(3)
        )
        measurement = Measurement.new(row, repeats, **policy.interval_options)
        store.add_cell(@run["id"], row.merge(summary(measurement)))
        emit(:cell_finished, cell, measurement)
      end

      # The cell's figures as columns, for queries over the store.
      def summary(measurement)
        return {} unless measurement.ok?

        { "requests_per_s" => measurement.requests_per_s, "latency_mean_us" => measurement.latency_mean_ms&.*(1000),
          "latency_p99_us" => measurement.latency_ms(99)&.*(1000), "requests" => measurement.requests,
          "errors" => measurement.errors }
      end
    end
  end
end
