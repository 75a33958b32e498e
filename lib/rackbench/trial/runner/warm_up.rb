# frozen_string_literal: true

module Rackbench
  class Runner
    # What comes before a window: the app's data reset (reset:), and on a
    # cell's first window of a start its warm-up, for warmup_s or until
    # steady (SteadyWarmup); later windows on a warm deployment only
    # reconnect (SHORT_WARMUP_S).
    module WarmUp
      private

      # Later windows on a warm deployment (and the window after a steady warm-up): reconnect only.
      def short_warmup_s = [suite["warmup_s"].to_f, SHORT_WARMUP_S].min

      # Before each window: the app's data reset (reset_each: window); then,
      # before the first window of a cell on a start, the warm-up: until steady
      # (returns what SteadyWarmup recorded), or for warmup_s.
      def prepare_window(load, drain, server, reset_dir, first:, steady:)
        reset!(server, reset_dir, "window")
        cell_dir = File.dirname(reset_dir)
        return steady_warmup.run(load, dir: cell_dir) if steady

        warm_up(load, drain, cell_dir) if first
        nil
      end

      # The suite's reset: commands, before each start or (reset_each: window)
      # each window, so writes do not pile up from one to the next; a failure
      # fails the cell (a start's: the server's cells).
      def reset!(server, dir, moment)
        return unless suite["reset"] && suite["reset_each"] == moment

        own_app.server_reset!(server, supervisor, dir, @service_env, app_path: suite.app_path(*server.config["app"]),
                                                                     log_root: store.dir)
      end

      # The cell is warm on this start; a steady warm-up's record goes with its first window.
      def warmed!(live, cell, repeat, record)
        live.warmed << cell.index
        repeat.resources["warmup"] = record if record
      end

      def steady_warmup
        @steady_warmup ||= SteadyWarmup.new(engine: @engine, supervisor: supervisor, pinning: pinning,
                                            max_s: suite["warmup_s_max"])
      end

      # An engine that cannot cut the warm-up from its own run gets a separate
      # warm-up run, after a drain; the Window drains again before measuring.
      def warm_up(load, drain, cell_dir)
        return if @engine.warmup_in_run? || load.warmup_s.zero?

        warm = load.dup
        warm.duration_s = load.warmup_s
        warm.requests = nil
        drain.wait
        @engine.run(warm, supervisor: supervisor, dir: cell_dir, cpus: pinning.client_cpus, log_name: "warmup.out")
      rescue ServiceError
        nil # a warm-up failure shows again, measured, in the window itself
      end
    end
  end
end
