# frozen_string_literal: true

require "fileutils"

module Rackbench
  class Runner
    # One round of a block, window by window: each cell's deployment found
    # (Deployments), checked (its answers, then idle), warmed up on the
    # cell's first window of the start (WarmUp), loaded, and the window kept
    # as the cell's next repeat (Recorder); a fault fails the cell. With
    # duet: true the round's windows are loaded at once (Duet); ratio: duet
    # adds a round of ratio windows a start, loaded at once (#measure_ratio).
    # Created by the Runner for the run's starts (Starts).
    #
    #   repeats.measure(cells, round, epoch)         # cells in the round's order
    #   repeats.measure_ratio(cells, round, epoch)   # one ratio window each, at once
    #   repeats.close                                # a duet's CPU groups removed
    class Repeats
      # One window about to be measured: its cell, live deployment, load,
      # folder, number and what a steady warm-up recorded.
      Prepared = Struct.new(:cell, :live, :load, :dir, :number, :warmed, keyword_init: true)

      # duet: whether rounds may be duets, ratio: whether a start gets ratio
      # windows (the suite asks, and every server runs on this machine).
      def initialize(suite, engine_name:, schedule:, recorder:, deployments:, warm_up:, dependencies:, duet:, ratio: false)
        @suite = suite
        @engine_name = engine_name
        @schedule = schedule
        @recorder = recorder
        @deployments = deployments
        @warm_up = warm_up
        @dependencies = dependencies
        @duet_wanted = duet
        @ratio = ratio && !duet
      end

      def ratio? = @ratio

      def measure(cells, round, epoch)
        return measure_duet(cells, round, epoch) if duet?(cells)

        cells.each { |cell| measure_repeat(cell, round, epoch) }
      end

      def close = @duet&.close

      # The cells' ratio windows (Repeat#ratio?): measured as a duet's round,
      # kept apart from the windows every figure reads. A fault in one fails
      # its cell, as in any window.
      def measure_ratio(cells, round, epoch)
        windows = cells.filter_map { |cell| prepare(cell, epoch) }.select { |w| drained?(w) }
        return if windows.size < 2

        @duet ||= Duet.new(dependencies: @dependencies, log_name: method(:log_name))
        @duet.measure(windows).each do |window, repeat, error|
          next window_failed(window.cell, error, window.live) if error

          repeat.noise["window"] = Measurement::RATIO_WINDOW
          measured(window, repeat, round)
        end
      end

      private

      def measure_repeat(cell, round, epoch)
        window = prepare(cell, epoch) or return
        repeat = window.live.trial.measure(window.load, dir: window.dir, dependencies: @dependencies,
                                                        neighbours: @deployments.neighbour_pids(window.live),
                                                        log_name: log_name(window))
        measured(window, repeat, round)
      rescue ServiceError, ConfigError => e
        window_failed(cell, e, window&.live)
      end

      # The window's deployment checked (its answers, then idle), and, on the
      # cell's first window of the start, warmed up: nil when the cell is done
      # or its deployment could not start.
      def prepare(cell, epoch)
        return nil if @recorder.done?(cell)

        live = @deployments.live_for(cell, epoch) or return nil
        trial = live.trial
        trial.verify!(cell.endpoint, timeout_s: @suite["timeout_s"])
        drain = trial.drain(path: drain_path(cell), timeout_s: @suite["drain_timeout_s"])
        number = @recorder.repeats(cell).size + 1
        first = !live.warmed.include?(cell.index)
        steady = first && @warm_up.steady?(trial)
        load = load_for(trial, cell, warmup_s: @warm_up.warmup_s(first: first, steady: steady), window: number)
        cell_dir = File.join(trial.dir, "c#{cell.index}").tap { |d| FileUtils.mkdir_p(d) }
        warmed = @warm_up.before_window(load, drain, trial.server, File.join(cell_dir, "reset-r#{number}"),
                                        first: first, steady: steady)
        Prepared.new(cell: cell, live: live, load: load, dir: cell_dir, number: number, warmed: warmed)
      rescue ServiceError, ConfigError => e
        window_failed(cell, e, live)
        nil
      end

      # The repeat kept: the deployment's measured requests so far in its
      # memory figures, and the load time RepeatPolicy counts (the window and
      # a short re-warm-up; a window of a number of requests, ab -n, lasts what it took).
      def measured(window, repeat, round)
        live = window.live
        @warm_up.warmed!(live, window.cell, repeat, window.warmed)
        live.requests = live.requests.to_i + repeat.result.requests.to_i
        repeat.resources["memory"]&.store("requests", live.requests)
        load = window.load
        window_s = load.requests ? repeat.result.duration_s : load.duration_s
        @recorder.keep(window.cell, repeat, deployment: live.number, round: @schedule.sequential? ? nil : round,
                                            load_s: window_s.to_f + [load.warmup_s.to_f, SHORT_WARMUP_S].min)
      end

      def window_failed(cell, error, live)
        @recorder.fail(cell, error.message, log_tail: error.respond_to?(:log_tail) ? error.log_tail : nil, trial: live&.trial)
        @deployments.retire([live.key]) if live && !live.trial.alive?
      end

      def log_name(window) = "#{@engine_name}-r#{window.number}.out"

      # --- duet ----------------------------------------------------------------

      def duet?(cells) = @duet_wanted && cells.size >= 2 && !@schedule.sequential?

      # Each cell prepared in turn (checked, warmed up), every server drained,
      # then every window loaded at once; the repeats kept in the round's order.
      def measure_duet(cells, round, epoch)
        windows = cells.filter_map { |cell| prepare(cell, epoch) }.select { |w| drained?(w) }
        @duet ||= Duet.new(dependencies: @dependencies, log_name: method(:log_name))
        @duet.measure(windows).each do |window, repeat, error|
          error ? window_failed(window.cell, error, window.live) : measured(window, repeat, round)
        end
      end

      # Every partner idle before any is loaded; a server that never drains fails its cell.
      def drained?(window)
        window.live.trial.drain(path: drain_path(window.cell), timeout_s: @suite["drain_timeout_s"]).wait
        true
      rescue ServiceError => e
        window_failed(window.cell, e, window.live)
        false
      end

      # --- the window's load ---------------------------------------------------

      # The probe path of the drain: the suite's drain_path, else the bundled
      # apps' cheapest endpoint, else the cell's own.
      def drain_path(cell)
        return @suite["drain_path"] if @suite["drain_path"]

        app = cell.server_config["app"] || @suite["app"]
        Apps.bundled?(app) ? "/hello" : Traffic.new(cell.endpoint).path
      end

      # window: the cell's window number (its arrivals' seed).
      def load_for(trial, cell, warmup_s:, window:)
        suite = @suite
        traffic = Traffic.new(cell.endpoint)
        Engines::Load.new(target: trial.target(traffic.path), concurrency: cell.concurrency, threads: suite["client_threads"],
                          duration_s: suite["duration_s"], warmup_s: warmup_s, requests: suite["requests"],
                          timeout_s: suite["timeout_s"], rate: cell.rate || suite["rate"], keepalive: suite["keepalive"],
                          traffic: traffic, request_start: suite["explain"], arrivals: cell.arrivals(suite["arrivals"]),
                          seed: @schedule.window_seed(window), slow_clients: Engines::SlowClients.from_suite(suite),
                          rule: trial.rule)
      end
    end
  end
end
