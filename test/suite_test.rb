# frozen_string_literal: true

require "test_helper"
require "yaml"

module Rackbench
  class SuiteTest < Minitest::Test
    def test_the_quick_suite_loads_and_expands_into_six_cells
      suite = Suite.load("quick")
      assert_equal "quick", suite.name
      assert_equal 6, Plan.new(suite).size, "3 servers x 2 endpoints at one concurrency"
      assert_equal File.join(ROOT, "apps", "rack", "config.ru"), suite.app_path
    end

    def test_smoke_settings_replace_the_defaults
      suite = Suite.load("quick", overrides: { "smoke" => true })
      assert_equal [4], suite["concurrency"]
      assert_equal 1, suite["duration_s"]
    end

    def test_windows_of_a_number_of_requests_measure_ratios_in_turns_unless_the_suite_says_duet
      assert_equal "duet", Suite.load(write_suite)["ratio"]
      assert_equal "turns", Suite.load(write_suite("requests" => 500))["ratio"]
      assert_equal "turns", Suite.load(write_suite, overrides: { "requests" => 500 })["ratio"], "from the command line"
      assert_equal "duet", Suite.load(write_suite("requests" => 500, "ratio" => "duet"))["ratio"]
      assert_equal "turns", Suite.load("lighttpd-proxy-2008", overrides: { "scale" => true })["ratio"]
    end

    def test_statistics_settings_are_checked_with_their_file_line_and_key
      { "repeats" => "many", "min_repeats" => 0, "precision" => 3, "deployments" => 1.5, "order" => "zigzag",
        "drain_path" => "hello" }.each do |key, value|
        path = File.join(tmpdir, "#{key}.yml")
        File.write(path, suite_yaml(key => value))
        error = assert_raises(ConfigError, key) { Suite.load(path) }
        line = File.readlines(path).index { |l| l.start_with?("#{key}:") } + 1
        assert_match "#{path}:#{line}: #{key} ", error.message
      end
    end

    def test_command_line_overrides_are_checked_and_recorded
      error = assert_raises(ConfigError) { Suite.load("quick", overrides: { "repeats" => 0 }) }
      assert_match "(command line).repeats must be one of auto or a whole number > 0, got 0", error.message
      suite = Suite.load("quick", overrides: { "repeats" => 5, "order" => "random" })
      assert_equal({ "repeats" => 5, "order" => "random" }, suite["overrides"])
    end

    def test_a_smoke_run_measures_once_unless_its_block_says_otherwise
      suite = Suite.load("quick", overrides: { "smoke" => true })
      assert_equal [1, 1], [suite["repeats"], suite["deployments"]]
    end

    def test_an_unknown_key_is_named_with_its_file_and_line
      path = File.join(tmpdir, "bad.yml")
      File.write(path, suite_yaml.sub("engine: wrk", "engine: wrk\ncuncurrency: [1]"))
      error = assert_raises(ConfigError) { Suite.load(path) }
      line = File.readlines(path).index { |l| l.start_with?("cuncurrency") } + 1
      assert_match "#{path}:#{line}: cuncurrency unknown key", error.message
    end

    def test_invalid_yaml_names_the_line
      path = File.join(tmpdir, "broken.yml")
      File.write(path, "name: x\nservers: [\n  {server: puma\n")
      error = assert_raises(ConfigError) { Suite.load(path) }
      assert_match(/broken.yml:\d+: invalid YAML/, error.message)
    end

    def test_an_unknown_server_lists_the_known_ones
      error = assert_raises(ConfigError) { Suite.load(write_suite("servers" => [{ "server" => "mongoose" }])) }
      assert_match(/servers.0.server unknown server "mongoose"; known: .*puma.*unicorn/, error.message)
    end

    def test_a_knob_the_server_does_not_take_is_named
      error = assert_raises(ConfigError) { Suite.load(write_suite("servers" => [{ "server" => "unicorn", "threads" => 4 }])) }
      assert_match(/servers.0.threads server unicorn: unknown key "threads"/, error.message)
    end

    def test_a_validation_error_carries_its_file_line_and_key_as_fields
      path = write_suite("servers" => [{ "server" => "puma" }, { "server" => "puma", "preload" => true, "fork_worker" => true }])
      error = assert_raises(ConfigError) { Suite.load(path) }
      line = File.readlines(path).index { |l| l.include?("fork_worker") } + 1
      assert_equal [path, line, "servers.1.fork_worker"], [error.file, error.line, error.key]
      assert_match(/\A#{Regexp.escape(path)}:#{line}: servers.1.fork_worker server puma: fork_worker needs workers > 0/,
                   error.message)
    end

    def test_a_servers_proxy_error_names_the_key_inside_the_proxy
      proxied = { "server" => "puma", "instances" => 2, "proxy" => { "proxy" => "nginx", "balanse" => "x" } }
      error = assert_raises(ConfigError) { Suite.load(write_suite("servers" => [proxied])) }
      assert_equal "servers.0.proxy.balanse", error.key
    end

    def test_an_unreadable_slo_is_named_at_the_slo_key_in_the_suites_words
      error = assert_raises(ConfigError) do
        Suite.load(write_suite("engine" => "native", "rates" => "auto", "slo" => "p99 under 2s"))
      end
      assert_equal "slo", error.key
      assert_match(/: slo cannot read "p99 under 2s"; write e.g./, error.message)
    end

    def test_a_negative_worker_count_is_refused_when_the_command_is_built
      server = Servers.fetch("puma").new("workers" => -1)
      error = assert_raises(ConfigError) { server.command(app: "config.ru", bind: server.bind(tmpdir), dir: tmpdir) }
      assert_match 'server puma: "workers" must be a whole number >= 0, got -1', error.message
    end

    def test_a_concurrency_that_is_not_a_positive_number_is_named_with_its_value
      error = assert_raises(ConfigError) { Suite.load(write_suite("concurrency" => [4, "many"])) }
      assert_match 'concurrency.1 must be a whole number > 0, got "many"', error.message
    end

    def test_an_unknown_engine_lists_the_known_ones
      error = assert_raises(ConfigError) { Suite.load(write_suite("engine" => "bombardier")) }
      assert_match(/engine unknown engine "bombardier"; known: .*ab.*wrk/, error.message)
    end

    def test_webrick_cannot_be_asked_for_a_unix_socket
      error = assert_raises(ConfigError) { Suite.load(write_suite("servers" => [{ "server" => "webrick", "bind" => "unix" }])) }
      assert_match "cannot listen on a Unix socket", error.message
    end

    def test_a_missing_suite_names_the_built_in_ones
      error = assert_raises(ConfigError) { Suite.load("no-such-suite") }
      assert_match(/no suite "no-such-suite".*quick/, error.message)
    end

    def test_an_app_that_does_not_exist_is_named
      suite = Suite.load(write_suite("app" => "missing/config.ru"))
      error = assert_raises(ConfigError) { suite.app_path }
      assert_match '"missing/config.ru" is neither a bundled app', error.message
    end
  end
end
