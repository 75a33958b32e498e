# frozen_string_literal: true

require "test_helper"
require_relative "../services/started_services"

module Rackbench
  # `rackbench verify` and Apps::Verification: each framework on a real puma,
  # with the upstream, memcached and PostgreSQL services rackbench starts.
  class VerifyTest < Minitest::Test
    include StartedServices

    def teardown
      stop_services
      @supervisor&.stop_all
      super
    end

    # PostgreSQL on a Unix socket for two frameworks and on loopback for the
    # others; the services started once for each pair (the catalogue's /db
    # creates its table if missing, so two apps share one database).
    { "unix" => %w[rack roda], "tcp" => %w[sinatra rails] }.each do |bind, apps|
      define_method("test_#{apps.join("_and_")}_answer_every_endpoint_as_the_catalogue_expects_with_postgresql_on_#{bind}") do
        env = start_services({ "service" => "upstream", "delay_ms" => 20 }, { "service" => "memcached" },
                             { "service" => "postgres", "bind" => bind })
        apps.each { |app| assert_answers_every_endpoint(app, env) }
      end
    end

    def test_the_command_starts_its_services_checks_every_endpoint_and_stops_everything
      keep = File.join(tmpdir, "kept")
      status, out, err = run_cli("verify", "rack", "--keep", keep)
      assert_equal 0, status, "#{out}\n#{err}"
      assert_equal "rack on puma x0:4", out.lines.first.chomp
      ok = out.lines.grep(/^  ok /)
      assert_equal(Apps.endpoints.map(&:sample), ok.map { |l| l.split[1] })
      assert File.size?(File.join(keep, "rack", "app.sqlite3")), "/db used SQLite in the run's folder"
      assert File.size?(File.join(keep, "service-upstream", "upstream.log")), "the upstream service ran"
      assert_nothing_left
    end

    def test_the_command_verifies_on_another_server_when_asked
      status, out, err = run_cli("verify", "roda", "--server", "unicorn")
      assert_equal 0, status, "#{out}\n#{err}"
      assert_equal "roda on unicorn", out.lines.first.chomp
      assert_equal Apps.endpoints.size, out.lines.grep(/^  ok /).size
      assert_nothing_left
    end

    def test_a_wrong_answer_is_a_failed_line_and_a_non_zero_exit
      app = File.join(tmpdir, "config.ru")
      File.write(app, <<~RUBY)
        run ->(env) { [200, { "content-type" => "text/plain" }, [env["PATH_INFO"] == "/hello" ? "hello word" : "?"]] }
      RUBY
      status, out, = run_cli("verify", app, "--threads", "2")
      assert_equal 1, status
      assert_includes out, %(FAIL  /hello)
      assert_includes out, %(body "hello word", expected "hello world")
      assert_match(/verify: \d+ wrong answer/, out)
      assert_nothing_left
    end

    def test_an_app_that_raises_at_boot_is_named_at_its_line_and_its_log_is_kept
      app_dir = FileUtils.mkdir_p(File.join(tmpdir, "shop")).first
      File.write(File.join(app_dir, "boot.rb"), "raise ArgumentError, 'no secret_key in config/settings.yml'\n")
      File.write(File.join(app_dir, "config.ru"), "require_relative 'boot'\nrun ->(_env) { [200, {}, []] }\n")
      status, _, err = run_cli("verify", File.join(app_dir, "config.ru"))
      assert_equal 1, status
      assert_includes err, "puma x0:4 exited before it was ready (exit 1): boot.rb:1: no secret_key in config/settings.yml " \
                           "(ArgumentError); log: config/server.log"
      kept = err[/logs kept in (\S+)$/, 1]
      assert kept && File.file?(File.join(kept, "config", "server.log")), err
      FileUtils.rm_rf(kept)
      assert_nothing_left
    end

    def test_an_unknown_app_is_a_clear_error
      status, _, err = run_cli("verify", "django")
      assert_equal 2, status
      assert_includes err, "neither a bundled app (rack, rails, roda, sinatra) nor a config.ru"
      assert_nothing_left
    end

    private

    def assert_answers_every_endpoint(app, env)
      dir = FileUtils.mkdir_p(File.join(tmpdir, app)).first
      verification = Apps::Verification.new(app, supervisor: supervisor, dir: dir, env: env)
      checks = verification.run
      assert_equal Apps.endpoints.map(&:name), checks.map(&:endpoint)
      checks.each do |check|
        assert_nil check.skipped, "#{app} #{check.path} was checked"
        assert check.ok?, "#{app} #{check.path}: #{check.problems.join("; ")}" # /db: "db postgresql: ..."
      end
      assert_includes verification.deployment_commands.flatten, "production"
    end
  end
end
