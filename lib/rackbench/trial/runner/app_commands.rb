# frozen_string_literal: true

require "set"

module Rackbench
  class Runner
    # The suite's commands around a server config, run through OwnApp: a
    # server entry's setup: once per run before its first start, and reset:
    # before each start or (reset_each: window) each window, so writes do not
    # pile up from one to the next. A failure raises ServiceError: it fails
    # the cell (a start's: the server config's cells). Created by the Runner
    # once the services' env is known.
    #
    #   commands.setup!(key, server, dir)        # the first time key is asked for
    #   commands.reset!(server, dir, "window")   # when reset_each: window
    class AppCommands
      def initialize(suite, own_app:, supervisor:, env:, log_root:)
        @suite = suite
        @own_app = own_app
        @supervisor = supervisor
        @env = env
        @log_root = log_root
        @set_up = Set.new
      end

      # key: the server config's (Deployments.key).
      def setup!(key, server, dir)
        return if @set_up.include?(key)

        @own_app.server_setup!(server, @supervisor, dir, @env, app_path: app_path(server), log_root: @log_root)
        @set_up << key
      end

      # moment: "start" or "window", run when the suite's reset_each names it.
      def reset!(server, dir, moment)
        return unless @suite["reset"] && @suite["reset_each"] == moment

        @own_app.server_reset!(server, @supervisor, dir, @env, app_path: app_path(server), log_root: @log_root)
      end

      private

      def app_path(server) = @suite.app_path(*server.config["app"])
    end
  end
end
