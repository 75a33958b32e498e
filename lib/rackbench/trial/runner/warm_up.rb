# frozen_string_literal: true

module Rackbench
  class Runner
    # What comes before a window: the app's data reset (reset_each: window),
    # and on a cell's first window of a start its warm-up, for warmup_s or
    # until steady (SteadyWarmup); later windows on a warm deployment only
    # reconnect (SHORT_WARMUP_S). Created by the Runner, asked by Repeats.
    #
    #   steady = first && warm_up.steady?(trial)
    #   load = ... warmup_s: warm_up.warmup_s(first: first, steady: steady)
    #   record = warm_up.before_window(load, drain, server, reset_dir, first: first, steady: steady)
    #   warm_up.warmed!(live, cell, repeat, record)   # once the window is measured
    class WarmUp
      def initialize(suite, engine:, supervisor:, pinning:, app_commands:)
        @suite = suite
        @engine = engine
        @supervisor = supervisor
        @pinning = pinning
        @app_commands = app_commands
      end

      # Whether the cell's first window on a deployment waits until steady.
      def steady?(trial) = SteadyWarmup.wanted?(@suite, trial.server, @suite.app_path(*trial.server.config["app"]))

      # The warm-up in a window's load: the suite's on a cell's first window
      # of a start; a reconnect after that, or after a steady warm-up.
      def warmup_s(first:, steady:) = first && !steady ? @suite["warmup_s"].to_f : [@suite["warmup_s"].to_f, SHORT_WARMUP_S].min

      # Before each window: the app's data reset (reset_each: window); then,
      # before the first window of a cell on a start, the warm-up: until steady
      # (returns what SteadyWarmup recorded), or for warmup_s (a run of its
      # own returns what it served; one cut from the window's run, nil).
      def before_window(load, drain, server, reset_dir, first:, steady:)
        @app_commands.reset!(server, reset_dir, "window")
        cell_dir = File.dirname(reset_dir)
        return steady_warmup.run(load, dir: cell_dir) if steady

        first ? warm_up(load, drain, cell_dir) : nil
      end

      # The cell is warm on this start; a steady warm-up's record goes with its first window.
      def warmed!(live, cell, repeat, record)
        live.warmed << cell.index
        repeat.resources["warmup"] = record if record
      end

      private

      def steady_warmup
        @steady_warmup ||= SteadyWarmup.new(engine: @engine, supervisor: @supervisor, pinning: @pinning,
                                            max_s: @suite["warmup_s_max"])
      end

      # An engine that cannot cut the warm-up from its own run gets a separate
      # warm-up run, after a drain; the Window drains again before measuring.
      # Its record: the responses that run completed (what warmed the server,
      # counted: Reports::ServedBefore says them).
      def warm_up(load, drain, cell_dir)
        return if @engine.warmup_in_run? || load.warmup_s.zero?

        warm = load.dup
        warm.duration_s = load.warmup_s
        warm.requests = nil
        drain.wait
        result = @engine.run(warm, supervisor: @supervisor, dir: cell_dir, cpus: @pinning.client_cpus, log_name: "warmup.out")
        { "mode" => "fixed", "engine" => @engine.name, "duration_s" => load.warmup_s.to_f, "requests" => result.requests }
      rescue ServiceError
        nil # a warm-up failure shows again, measured, in the window itself
      end
    end
  end
end
