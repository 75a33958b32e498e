# frozen_string_literal: true

require_relative "services_helper"

module Rackbench
  # PostgreSQL from Debian's package, started by rackbench in a temporary
  # folder (as the postgres user when the tests run as root) and removed after.
  class PostgresTest < Minitest::Test
    include ServiceHelpers

    def setup = require "pg"

    def programs(service) = service.commands.map { |argv| File.basename(argv[(argv.index("-D") || 1) - 1]) }

    # Each start a fresh cluster of its own: the first from initdb, kept in
    # the cache as a template; the next a copy of it (no initdb run).
    def test_a_second_start_copies_the_cluster_the_first_ones_initdb_made
      cache = File.join(tmpdir, "cache")
      first, second = with_cache(cache) { [1, 2].map { start_service("service" => "postgres", "bind" => "unix") } }
      kept = Dir[File.join(cache, "rackbench", "postgres-*")]
      assert_equal 1, kept.size, "one template, nothing half-copied beside it: #{kept}"
      assert File.directory?(File.join(kept.first, "base")), "a whole cluster kept"
      assert_equal %w[initdb postgres], programs(first[0])
      assert_equal ["cp", "-a", kept.first], second[0].commands.find { |argv| argv.first == "cp" }&.first(3)
      assert_equal %w[initdb cp postgres], programs(second[0]), "initdb's argv says how the copied cluster was made"
      assert_equal [true, false], (1..2).map { |n| File.exist?(File.join(tmpdir, "service-postgres-#{n}", "initdb.log")) },
                   "initdb ran for the first start only"
      [first, second].each_with_index do |(_, env), i|
        conn = PG.connect(env.fetch("RACKBENCH_DATABASE_URL"))
        conn.exec("CREATE TABLE t (id integer)") # each cluster its own: the same table made in both
        conn.exec("INSERT INTO t VALUES (#{i})")
        assert_equal [[i.to_s]], conn.exec("SELECT id FROM t").values
        conn.close
      end
    end

    def with_cache(dir)
      before = ENV.fetch("XDG_CACHE_HOME", nil)
      ENV["XDG_CACHE_HOME"] = dir
      yield
    ensure
      before ? ENV["XDG_CACHE_HOME"] = before : ENV.delete("XDG_CACHE_HOME")
    end

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

      assert_equal "postgres", programs(service).last
      assert_includes programs(service), "initdb", "how the cluster was made"
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
