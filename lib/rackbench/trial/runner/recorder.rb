# frozen_string_literal: true

require "time"

module Rackbench
  class Runner
    # A cell's state in a run: its repeats so far, the load time they took
    # (as RepeatPolicy counts it) and whether it is done.
    CellState = Struct.new(:cell, :repeats, :load_s, :done, :failed, keyword_init: true)

    # The cells of a run and what becomes of them: each repeat kept as it is
    # measured (stored at once, told to the listener), and each cell, once
    # finished or failed, its stored row (key columns, versions, commands)
    # and its Measurement, the one the store built from what it stored
    # (Store#finish_cell), for the listener. Created by the
    # Runner once the run is stored; a resumed run's states are filled by
    # Resumer before anything is measured.
    #
    #   recorder.keep(cell, repeat, deployment: 2, round: 5, load_s: 2.25)
    #   recorder.finish(cell, trial: trial)          # "ok", with what it has
    #   recorder.fail(cell, "exited", trial: trial)  # "failed", with the reason
    class Recorder
      # {position => CellState}
      attr_reader :states

      def initialize(plan, store:, run_id:, engine_name:, listener:)
        @states = plan.cells.to_h { |c| [c.index, CellState.new(cell: c, repeats: [], load_s: 0.0, done: false)] }
        @store = store
        @run_id = run_id
        @engine_name = engine_name
        @listener = listener
      end

      # Every window kept, ratio windows (Repeat#ratio?) among them.
      def repeats(cell) = @states[cell.index].repeats

      # The windows in turns: those the cell's own figures read.
      def windows(cell) = repeats(cell).reject(&:ratio?)

      def load_s(cell) = @states[cell.index].load_s

      def done?(cell) = @states[cell.index].done

      # A measured window becomes the cell's next repeat: numbered, tied to its
      # start (deployment) and round, stored, and told to the listener.
      # load_s: the load time it adds (the window and its re-warm-up).
      def keep(cell, repeat, deployment:, round:, load_s:)
        state = @states[cell.index]
        repeat.index = state.repeats.size + 1
        repeat.deployment = deployment
        repeat.round = round
        @store.add_repeat(@run_id, cell.index, repeat)
        state.repeats << repeat
        state.load_s += load_s
        @listener.tell(:repeat_finished, cell, repeat)
      end

      # trial: the cell's live deployment, if any (its version and commands go in the row).
      def finish(cell, trial:)
        record(cell, "ok", trial: trial) if close(cell)
      end

      def failed?(cell) = @states[cell.index].failed

      def fail(cell, reason, log_tail: nil, trial: nil)
        @states[cell.index].failed = true unless @states[cell.index].done
        record(cell, "failed", reason: reason, log_tail: log_tail, trial: trial) if close(cell)
      end

      # Every cell still open, finished with what it has (the run's last starts are over).
      def finish_all = @states.each_value { |state| finish(state.cell, trial: nil) }

      private

      # Marks the cell done; false when it was already.
      def close(cell)
        state = @states[cell.index]
        return false if state.done

        state.done = true
      end

      # The cell's row: its key's columns (label rendered from it) and how it went.
      def record(cell, status, trial:, reason: nil, log_tail: nil)
        repeats = repeats(cell)
        row = cell.key.columns.merge(
          "position" => cell.index, "engine" => @engine_name, "status" => status, "reason" => reason, "log_tail" => log_tail,
          "server_version" => trial&.server_version || Servers.fetch(cell.server_name).version,
          "server_command" => trial&.commands, "engine_command" => repeats.last&.result&.command,
          "started_at" => repeats.first&.started_at || Time.now.utc.iso8601(3)
        )
        @listener.tell(:cell_finished, cell, @store.finish_cell(@run_id, row))
      end
    end
  end
end
