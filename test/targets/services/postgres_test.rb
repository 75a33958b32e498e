# frozen_string_literal: true

require_relative "services_helper"

module Rackbench
  # PostgreSQL from Debian's package, started by rackbench in a temporary
  # folder (as the postgres user when the tests run as root) and removed after.
  class PostgresTest < Minitest::Test
    include ServiceHelpers

    def setup = require "pg"

    def test_it_serves_sql_on_a_unix_socket_and_removes_its_cluster_when_stopped
      service, env = start_service("service" => "postgres", "bind" => "unix")
      url = env.fetch("RACKBENCH_DATABASE_URL")
      assert_match(%r{\Apostgresql://postgres@/postgres\?host=/}, url)
      home = url[/host=([^&]+)/, 1]
      assert File.socket?(Dir[File.join(home, ".s.PGSQL.*")].first.to_s), "the socket is in its own temporary folder"

      conn = PG.connect(url)
      conn.exec("CREATE TABLE t (id integer PRIMARY KEY, name text)")
      conn.exec_params("INSERT INTO t VALUES ($1, $2)", [1, "one"])
      assert_equal [%w[1 one]], conn.exec("SELECT id, name FROM t").values
      assert_equal "on", conn.exec("SHOW fsync").getvalue(0, 0), "server defaults unless settings say otherwise"
      conn.close

      assert_equal(%w[initdb postgres], service.commands.map { |argv| File.basename(argv[argv.index("-D") - 1]) })
      service.stop(supervisor)
      assert_nothing_left
      refute File.exist?(home), "the cluster's folder is removed"
    end

    def test_it_listens_on_loopback_with_the_settings_the_suite_gives
      _, env = start_service("service" => "postgres", "settings" => { "fsync" => "off" }, "max_connections" => 50)
      url = env.fetch("RACKBENCH_DATABASE_URL")
      assert_match %r{\Apostgresql://postgres@127\.0\.0\.1:\d+/postgres\z}, url
      conn = PG.connect(url)
      assert_equal "off", conn.exec("SHOW fsync").getvalue(0, 0)
      assert_equal "50", conn.exec("SHOW max_connections").getvalue(0, 0)
      conn.close
    end

    def test_a_bad_setting_is_a_config_error
      error = assert_raises(ConfigError) do
        Services.fetch("postgres").new("service" => "postgres", "settings" => "fsync=off").validate!
      end
      assert_includes error.message, "settings"
    end
  end
end
