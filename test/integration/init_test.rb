# frozen_string_literal: true

require "test_helper"
require "yaml"
require_relative "fixture_app_helper"

module Rackbench
  # `rackbench init` on apps as they are: one whose puma config needs a
  # variable, whose pool needs another per server, with no route table and
  # an optional falcon group (test/fixtures/pooled); one that raises at boot.
  class InitTest < Minitest::Test
    include FixtureAppHelper

    def pooled_app = installed_fixture_app("pooled")

    def init(app, *options)
      rackbench("init", app, "--results", File.join(tmpdir, "results"), *options, chdir: app)
    end

    def test_an_app_that_stops_without_a_variable_gets_its_suite_with_the_variable_named_and_what_to_do
      app = pooled_app
      status, out, pid = init(app)
      assert status.success?, out
      assert_includes out, "  puma: cannot start: puma x0:5 exited before it was ready (exit 1): config/puma.rb:4: " \
                           'key not found: "WEB_CONCURRENCY" (KeyError); log: init/pooled/puma/server.log'
      assert_includes out, "  needs WEB_CONCURRENCY: puma stopped without it; run init again with --env WEB_CONCURRENCY=VALUE"
      assert_match(/nothing answered 2xx, so it has no endpoints yet: .*then run init again with --force$/, out)
      assert File.file?(File.join(tmpdir, "results", "init", "pooled", "puma", "server.log")), "the log is where it says"
      suite = File.read(File.join(app, "rackbench.yml"))
      assert_includes suite, "#   WEB_CONCURRENCY: ...    # needed: puma stopped without it"
      assert_includes suite, "  # - {server: puma, threads: 5}    # cannot start: puma x0:5 exited before it was ready " \
                             '(exit 1): config/puma.rb:4: key not found: "WEB_CONCURRENCY" (KeyError)'
      assert_equal [], YAML.safe_load(suite)["servers"]
      assert_nothing_left(pid)
    end

    # The token given with --env went to the env file the suite names (mode 0600), not into the suite.
    def assert_secret_in_env_file(app, suite, out)
      assert_equal({ "WEB_CONCURRENCY" => "0", "MAX_THREADS" => "2" }, suite["env"])
      assert_equal "rackbench.env", suite["env_file"], "a secret goes to the env file the suite names, not into it"
      assert_equal "API_TOKEN=tok-5f4e3d2c1b\n", File.read(File.join(app, "rackbench.env"))
      assert_equal 0o600, File.stat(File.join(app, "rackbench.env")).mode & 0o777
      assert_includes out, "wrote #{File.join(app, "rackbench.env")} (API_TOKEN)"
    end

    def test_variables_and_paths_given_make_a_suite_that_runs_from_a_clean_shell
      app = pooled_app
      status, out, pid = init(app, "--env", "WEB_CONCURRENCY=0", "--env", "MAX_THREADS=2", "--env", "API_TOKEN=tok-5f4e3d2c1b",
                              "--path", "/health", "--path", "/items")
      assert status.success?, out
      assert_includes out, "  puma: started\n"
      assert_includes out, "  endpoints: /health (200), /items (200)\n  left out /: answered 500\n"
      assert_match(/^  iodine: cannot start: iodine exited before it was ready \(exit 1\): pool\.rb:5: key not found: "THREADS"/,
                   out)
      assert_match(/^  falcon: left out: falcon is in Gemfile\.lock but its group \(falcon\) is not installed here/, out)
      refute_includes out, "falcon: started", "a server whose group the bundle lacks is not offered"
      assert_nothing_left(pid)

      suite = YAML.safe_load_file(File.join(app, "rackbench.yml"))
      assert_secret_in_env_file(app, suite, out)
      assert_equal([{ "path" => "/health", "expect_status" => 200 }, { "path" => "/items", "expect_status" => 200 }],
                   suite["endpoints"])
      assert_equal [{ "server" => "puma", "threads" => 5 }], suite["servers"]
      text = File.read(File.join(app, "rackbench.yml"))
      assert_includes text, "  # - /    # left out: answered 500"
      assert_includes text, "  #   it needs THREADS: add env: {THREADS: ...} to the entry, or run init with --env"
      assert_includes text, "`bundle config set --local with falcon && bundle install` in this folder adds it; " \
                            "then add {server: falcon}"

      status, out, pid = rackbench("run", "rackbench.yml", "--smoke", "--results", File.join(tmpdir, "results"),
                                   chdir: app, env: { "WEB_CONCURRENCY" => nil, "MAX_THREADS" => nil, "THREADS" => nil })
      assert status.success?, out
      assert_match(/^puma x0:5\s+4\s+[\d,.]+/, out)
      refute_includes File.binread(File.join(tmpdir, "results", Store::FILE)), "tok-5f4e3d2c1b"
      assert_nothing_left(pid)
    end

    def test_an_app_that_raises_at_boot_shows_the_exception_line
      app = fixture_app("boot_error")
      status, out, pid = init(app)
      assert status.success?, out
      assert_includes out, "  puma: cannot start: puma x0:5 exited before it was ready (exit 1): lib/settings.rb:5: " \
                           "config/settings.yml has no secret_key (copy config/settings.example.yml) (ArgumentError); " \
                           "log: init/boot_error/puma/server.log\n"
      refute_includes out, "\tfrom ", "no backtrace"
      assert_nothing_left(pid)
    end

    # The command line's code in this process (CLI.start): no app is looked at, nothing starts.
    def test_bad_options_are_one_clear_error
      status, out, err = run_cli("init", "--env", "MAX_THREADS")
      assert_equal 2, status
      assert_includes out + err, "--env MAX_THREADS: give NAME=VALUE, like --env MAX_THREADS=5"
      status, out, err = run_cli("init", "--path", "health")
      assert_equal 2, status
      assert_includes out + err, "--path health: give a path starting with /"
    end
  end
end
