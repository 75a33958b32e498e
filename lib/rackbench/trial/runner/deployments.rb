# frozen_string_literal: true

module Rackbench
  class Runner
    # The Runner's deployments: one live Trial per server config and start
    # (epoch), started side by side with the others of its level, its setup:
    # run once per run, and retired when the start is over or it died.
    module Deployments
      private

      def group_key(cell) = [cell.server_index, cell.server_config]

      def groups = @groups ||= plan.groups.to_h { |g| [[g.server_index, g.server_config], g] }

      def server_for(group) = Servers.fetch(group.server_config["server"]).new(group.server_config)

      # The live Trial of the cell's server config for this epoch: started
      # (side by side with the others of its level) when there is none, or the
      # one there died. A start failure fails every unfinished cell of the group.
      def live_for(cell, epoch)
        key = group_key(cell)
        live = @live[key]
        retire([key]) if live && (live.epoch != epoch || !live.trial.alive?)
        return @live[key] if @live[key]

        group = groups.fetch(key)
        number = (@deployed[key] += 1)
        trial = trial_for(group, cell.key, number)
        setup_server(key, trial.server, File.join(File.dirname(trial.dir), "setup"))
        reset!(trial.server, File.join(trial.dir, "reset"), "start")
        @live[key] = Live.new(key: key, trial: trial.start, epoch: epoch, number: number, warmed: Set.new)
      rescue ServiceError => e
        group.cells.each { |c| fail_cell(c, e.message, e.log_tail) }
        nil
      end

      # Every answer is checked before it is measured: against the suite's
      # expect_status/expect_body, else, for a bundled app, the catalogue's
      # expected answer (AnswerRule). explain: true serves the app inside the probe.
      def trial_for(group, key, number)
        config = group.server_config
        rule = AnswerRule.new(catalogue: Apps.bundled?(config["app"] || suite["app"]), env: @service_env)
        dir = File.join(@run["dir"], format("%02d-%s", key.variant, Words.slug(key.config_label)), "d#{number}")
        Trial.new(server_for(group), supervisor: supervisor, dir: dir, app: suite.app_path(*config["app"]), window: @window,
                                     rule: rule, explain: suite["explain"], env: @service_env, cpus: pinning.server_cpus,
                                     ready_timeout_s: suite["ready_timeout_s"], ready_path: suite["ready_path"],
                                     host: @fleet&.server_connection(config), log_root: store.dir,
                                     queue_corrections_us: @fleet ? @fleet.queue_corrections_us(config) : {})
      end

      # A server entry's own setup: commands, once per run before its first start.
      def setup_server(key, server, dir)
        return if (@set_up ||= Set.new).include?(key)

        own_app.server_setup!(server, supervisor, dir, @service_env, app_path: suite.app_path(*server.config["app"]),
                                                                     log_root: store.dir)
        @set_up << key
      end

      def retire(keys)
        keys.each { |key| @live.delete(key)&.trial&.stop }
      end
    end
  end
end
