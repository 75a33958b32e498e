# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Runner
    # The suite's commands around a server config: its setup: once per run
    # whatever the number of starts, and reset: only at the moment
    # reset_each names, each run through OwnApp with the services' env.
    class AppCommandsTest < Minitest::Test
      Server = Struct.new(:config)

      # OwnApp's part: says what it was asked to run.
      Ran = Struct.new(:log) do
        def server_setup!(server, _supervisor, dir, env, app_path:, log_root:)
          log << [:setup, server.config["server"], File.basename(dir), env, File.basename(app_path), log_root]
        end

        def server_reset!(_server, _supervisor, dir, _env, **) = log << [:reset, File.basename(dir)]
      end

      def commands(extra = {})
        @ran = Ran.new([])
        AppCommands.new(Suite.load(write_suite(extra)), own_app: @ran, supervisor: nil, env: { "DATABASE_URL" => "x" },
                                                        log_root: "results")
      end

      def test_a_server_configs_setup_runs_once_per_run_however_often_it_starts
        run = commands
        3.times { |start| run.setup!([1, {}], Server.new({ "server" => "puma" }), "d#{start + 1}/setup") }
        run.setup!([2, {}], Server.new({ "server" => "thin" }), "d1/setup")
        assert_equal [[:setup, "puma", "setup", { "DATABASE_URL" => "x" }, "config.ru", "results"],
                      [:setup, "thin", "setup", { "DATABASE_URL" => "x" }, "config.ru", "results"]], @ran.log
      end

      def test_reset_runs_only_at_the_moment_the_suite_names
        run = commands("reset" => ["true"], "reset_each" => "window")
        run.reset!(Server.new({}), "d1/reset", "start")
        run.reset!(Server.new({}), "d1/c1/reset-r1", "window")
        assert_equal [[:reset, "reset-r1"]], @ran.log
      end

      def test_without_reset_commands_nothing_is_reset
        run = commands
        %w[start window].each { |moment| run.reset!(Server.new({}), "d1/reset", moment) }
        assert_empty @ran.log
      end
    end
  end
end
