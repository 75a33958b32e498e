# frozen_string_literal: true

require "set"

module Rackbench
  class Runner
    # A Trial of a server config in one start (epoch): its deployment number,
    # the cells warmed on it and the measured requests it has served.
    Live = Struct.new(:key, :trial, :epoch, :number, :warmed, :requests, keyword_init: true)

    # The run's live deployments: one Trial per server config and start
    # (epoch), its setup: run before its first start, started side by side
    # with the others of its level, retired when the start is over or when it
    # died. A start that fails fails every open cell of its server config.
    # Created by the Runner once the services, hosts and the app's setup are up.
    #
    #   live = deployments.live_for(cell, epoch)   # => Live (started if need be), or nil: it could not start
    #   deployments.neighbour_pids(live)           # the other live deployments' processes
    #   deployments.retire_except(keys)            # stops the others
    #   deployments.retire_all
    class Deployments
      # The server config a cell (or a plan's group) runs on.
      def self.key(cell) = [cell.server_index, cell.server_config]

      # run_dir: the run's folder, a deployment's goes inside; window: the
      # Window each Trial measures with (a fleet's, for remote servers); env:
      # the app's (services' and the suite's); fleet: Hosts::Fleet or nil;
      # numbers: the deployment numbers so far by key (a resumed run's go on).
      def initialize(suite, plan:, recorder:, app_commands:, supervisor:, pinning:, run_dir:, window:, env:, fleet:,
                     log_root:, numbers: {})
        @suite = suite
        @groups = plan.groups.to_h { |g| [Deployments.key(g), g] }
        @recorder = recorder
        @app_commands = app_commands
        @supervisor = supervisor
        @pinning = pinning
        @run_dir = run_dir
        @window = window
        @env = env
        @fleet = fleet
        @log_root = log_root
        @numbers = Hash.new(0).merge(numbers)
        @live = {}
      end

      # The live Trial of the cell's server config for this epoch: started
      # (side by side with the others of its level) when there is none, or the
      # one there died. A start failure fails every unfinished cell of the group.
      def live_for(cell, epoch)
        key = Deployments.key(cell)
        live = @live[key]
        retire([key]) if live && (live.epoch != epoch || !live.trial.alive?)
        @live[key] || start(key, cell, epoch)
      end

      def trial_of(cell) = @live[Deployments.key(cell)]&.trial

      def neighbour_pids(live) = @live.values.reject { |other| other.equal?(live) }.flat_map { |other| other.trial.pids }

      # Local deployments stop side by side, each waiting for its own exit (one
      # after another, the eight of app-servers-2015 --smoke took 17 s to stop at
      # load 14, two Passengers 6 s each); a fleet's in turn over its connections.
      # One whose stop raised is stopped like the others first, then the first
      # error is raised.
      def retire(keys)
        trials = keys.filter_map { |key| @live.delete(key)&.trial }
        return trials.each(&:stop) if trials.size < 2 || @fleet

        SideBySide.each(trials, &:stop)
      end

      def retire_except(keys) = retire(@live.keys - keys)

      def retire_all = retire(@live.keys)

      private

      def start(key, cell, epoch)
        group = @groups.fetch(key)
        number = (@numbers[key] += 1)
        trial = trial_for(group, cell.key, number)
        @app_commands.setup!(key, trial.server, File.join(File.dirname(trial.dir), "setup"))
        @app_commands.reset!(trial.server, File.join(trial.dir, "reset"), "start")
        @live[key] = Live.new(key: key, trial: trial.start, epoch: epoch, number: number, warmed: Set.new)
      rescue ServiceError => e
        group.cells.each { |c| @recorder.fail(c, e.message, log_tail: e.log_tail) }
        nil
      end

      # Every answer is checked before it is measured: against the suite's
      # expect_status/expect_body, else, for a bundled app, the catalogue's
      # expected answer (AnswerRule). explain: true serves the app inside the probe.
      def trial_for(group, key, number)
        config = group.server_config
        rule = AnswerRule.new(catalogue: Apps.bundled?(config["app"] || @suite["app"]), env: @env)
        dir = File.join(@run_dir, format("%02d-%s", key.variant, Words.slug(key.config_label)), "d#{number}")
        Trial.new(Runner.server_for(group), supervisor: @supervisor, dir: dir, app: @suite.app_path(*config["app"]),
                                            window: @window, rule: rule, explain: @suite["explain"], env: @env,
                                            cpus: @pinning.server_cpus,
                                            ready_timeout_s: @suite["ready_timeout_s"], ready_path: @suite["ready_path"],
                                            host: @fleet&.server_connection(config), log_root: @log_root,
                                            queue_corrections_us: @fleet ? @fleet.queue_corrections_us(config) : {})
      end
    end
  end
end
