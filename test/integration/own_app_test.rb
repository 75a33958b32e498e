# frozen_string_literal: true

require "test_helper"
require "bundler"
require "digest"
require "json"
require "open3"
require "yaml"

module Rackbench
  # A user's own app, as a user runs it: its own Gemfile (Sinatra 3, while
  # rackbench's bundle has Sinatra 4), real requests, a mix, and the faults
  # of a real app (a server its bundle lacks, a failing setup, no readiness).
  class OwnAppTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")
    FIXTURE = File.join(ROOT, "test", "fixtures", "sinatra3")

    # The test's own copy of the fixture app with its bundle installed
    # (a Gemfile.lock beside it), copied from the one installed once a file.
    def app_dir
      @app_dir ||= File.join(tmpdir, "app").tap { |dir| FileUtils.cp_r(installed_app, dir) }
    end

    def installed_app
      self.class.installed_app ||= File.join(Dir.mktmpdir("rackbench-own-app"), "app").tap do |dir|
        Minitest.after_run { FileUtils.rm_rf(File.dirname(dir)) }
        FileUtils.cp_r(FIXTURE, dir)
        out, status = Bundler.with_unbundled_env { Open3.capture2e("bundle", "install", "--local", chdir: dir) }
        assert status.success?,
               "bundle install --local of the fixture app failed (`bin/setup rails` installs sinatra 3.2.0):\n#{out}"
      end
    end

    class << self
      attr_accessor :installed_app
    end

    def own_suite(extra = {})
      path = File.join(app_dir, "suite.yml")
      File.write(path, {
        "name" => "own", "app" => "config.ru", "concurrency" => [2], "duration_s" => 1, "warmup_s" => 0,
        "repeats" => 1, "deployments" => 1, "engine" => "native", "env" => { "APP_GREETING" => "from the suite" },
        "endpoints" => [
          { "path" => "/version", "expect_body" => "sinatra 3." },
          { "name" => "echo", "path" => "/echo", "method" => "POST", "json" => { "a" => 1 },
            "headers" => { "X-Token" => "t" }, "expect_body" => 'POST {"a":1} t from the suite' },
          { "path" => "/flaky", "expect_body" => "ready" }
        ],
        "mix" => [{ "endpoint" => "/version", "weight" => 3 }, { "endpoint" => "echo", "weight" => 1 }],
        "servers" => [{ "server" => "puma", "threads" => 2 }]
      }.merge(extra).to_yaml)
      path
    end

    def run_bin(*argv)
      out, err, status = Open3.capture3(BIN, *argv)
      [status, "#{out}#{err}", status.pid]
    end

    # The stored run's json report, in this process (CLI.start): what the
    # tests read is the run's, not how the command line starts.
    def report(results)
      status, json, err = run_cli("report", "--results", results, "--format", "json")
      assert_equal 0, status, err
      JSON.parse(json)
    end

    def test_an_app_pinned_to_sinatra_3_is_measured_under_its_own_bundle_with_real_requests_and_a_mix
      results = File.join(tmpdir, "results")
      status, out, pid = run_bin("run", own_suite, "--results", results)
      assert status.success?, out
      assert_match(/^App app: its own bundle, Gemfile\.lock sha256 \h{12}, Ruby [\d.]+, sinatra 3\.2\.0, rack 2\./, out)
      assert_match(%r{^mix: puma x0:2 c=2 \(per endpoint\)\nendpoint .*\n-+ .*\n/version +3 }, out)
      data = report(results)
      lock = File.read(File.join(app_dir, "Gemfile.lock"))
      bundle = data["run"]["machine"]["app_bundles"].values.first
      assert_equal "3.2.0", bundle["gems"]["sinatra"], "the app's Sinatra, not rackbench's"
      assert_equal Digest::SHA256.hexdigest(lock), bundle["gemfile_lock_sha256"]
      assert_equal lock[/^    puma \(([^)]+)\)/, 1], data["cells"].first["server_version"]
      assert_includes data["cells"].first["server_command"].flatten, "exec"

      by_name = data["cells"].to_h { |c| [c["endpoint"], c] }
      assert_equal %w[/version echo /flaky mix], by_name.keys
      by_name.except("/flaky").each_value do |cell|
        result = cell["repeats"].first["result"]
        assert_operator result["requests"], :>, 0, cell["endpoint"]
        assert_equal 0, result["errors"]["check"], "every answer of #{cell["endpoint"]} passed its check during load"
      end
      flaky = by_name["/flaky"]["repeats"].first["result"]
      assert_operator flaky["requests"], :>, 0
      assert_equal flaky["requests"], flaky["errors"]["check"], "verify saw 'ready'; every answer under load was 'degraded'"
      assert_includes by_name["echo"]["engine_command"], "--expect-body"
      members = by_name["mix"]["repeats"].first["result"]["endpoints"]
      assert_equal(%w[/version echo], members.map { |m| m["name"] })
      assert_equal(%w[GET POST], members.map { |m| m["method"] })
      members.each { |m| assert_operator m["requests"], :>, 0, m["name"] }
      assert_operator members[0]["requests"], :>, members[1]["requests"], "weight 3 is served more often than weight 1"
      assert_nothing_left(pid)
    end

    def test_init_writes_a_starter_suite_that_runs_on_the_apps_own_server
      status, out, = run_bin("init", app_dir)
      assert status.success?, out
      assert_match(/sinatra app in .*; servers in its bundle: puma/, out)
      suite = File.read(File.join(app_dir, "rackbench.yml"))
      assert_match(%r{^endpoints:\n  - \{path: /flaky, expect_status: 200\}\n  - \{path: /version, expect_status: 200\}\n}, suite,
                   "its GET routes, each answered 2xx, checked for that status")
      refute_includes suite, "/echo", "a POST route is not a starter endpoint"
      status, out, pid = run_bin("run", File.join(app_dir, "rackbench.yml"), "--smoke", "--results", File.join(tmpdir, "r"))
      assert status.success?, out
      assert_match(/^puma x0:5\s+4\s+[\d,.]+/, out)
      assert_nothing_left(pid)
      # again, in this process (CLI.start): the refusal is the command's, not how it starts
      status, _out, err = run_cli("init", app_dir)
      assert_equal 2, status, "bad input: #{err}"
      assert_includes err, "rackbench.yml exists: pass --force"
    end

    def test_wrk_and_ab_send_the_post_too
      %w[wrk ab].each do |engine|
        results = File.join(tmpdir, "results-#{engine}")
        suite = own_suite("engine" => engine, "mix" => nil, "endpoints" => [
                            { "name" => "echo", "path" => "/echo", "method" => "POST", "json" => { "a" => 1 },
                              "expect_body" => "POST" }
                          ])
        status, out, = run_bin("run", suite, "--results", results)
        assert status.success?, out
        result = report(results)["cells"].first["repeats"].first["result"]
        assert_operator result["requests"], :>, 0, engine
        assert_equal 0, result["errors"]["status"], "#{engine} posted (a GET of /echo answers 404)"
      end
    end

    def test_a_server_missing_from_the_apps_bundle_fails_its_cells_naming_the_gem_and_the_fix
      results = File.join(tmpdir, "results")
      status, out, pid = run_bin("run", own_suite("servers" => [{ "server" => "unicorn" }], "mix" => nil), "--results", results)
      refute status.success?, out
      cell = report(results)["cells"].first
      assert_equal "failed", cell["status"]
      assert_includes cell["reason"], "bundle add unicorn"
      assert_nothing_left(pid)
    end

    def test_a_failing_setup_command_stops_the_run_with_the_command_named
      status, out, pid = run_bin("run", own_suite("setup" => ["echo preparing", "exit 3"]), "--results", File.join(tmpdir, "r"))
      refute status.success?
      assert_includes out, "setup command \"exit 3\" failed"
      assert_nothing_left(pid)
    end

    def test_an_app_that_never_gets_ready_fails_its_cells_after_the_ready_timeout
      File.write(File.join(app_dir, "never.ru"), "sleep\nrun ->(_env) { [200, {}, []] }\n")
      suite = own_suite("app" => "never.ru", "endpoints" => ["/"], "mix" => nil, "ready_timeout_s" => 1)
      status, out, pid = run_bin("run", suite, "--results", File.join(tmpdir, "r"))
      refute status.success?
      assert_match(/not ready after 1s/, out)
      assert_nothing_left(pid)
    end
  end
end
