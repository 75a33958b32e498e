# frozen_string_literal: true

require "bundler"
require "json"
require "open3"
require "yaml"

module Rackbench
  # A copy of an app under test/fixtures with its own bundle installed from
  # the system's gems (`bundle install --local`, as bin/setup prepares), and
  # rackbench run as a user runs it.
  module FixtureAppHelper
    BIN = File.join(ROOT, "bin", "rackbench")

    # Copies installed once a test file (each file runs in a Ruby of its own), by fixture name.
    def self.installed = (@installed ||= {})

    # The copied app's folder; bundle_config: `bundle config` pairs set first (without: falcon).
    def fixture_app(name, bundle_config: {}) = install_fixture(name, File.join(tmpdir, name), bundle_config: bundle_config)

    # The test's own copy of a fixture app whose bundle was installed once
    # for the test file, where each test would install it again.
    def installed_fixture_app(name)
      installed = FixtureAppHelper.installed[name] ||= begin
        kept = Dir.mktmpdir("rackbench-#{name}")
        Minitest.after_run { FileUtils.rm_rf(kept) }
        install_fixture(name, File.join(kept, name))
      end
      File.join(tmpdir, name).tap { |dir| FileUtils.cp_r(installed, dir) }
    end

    def install_fixture(name, dir, bundle_config: {})
      FileUtils.cp_r(File.join(ROOT, "test", "fixtures", name), dir)
      Bundler.with_unbundled_env do
        bundle_config.each { |key, value| Open3.capture2e("bundle", "config", "set", "--local", key, value, chdir: dir) }
        out, status = Open3.capture2e("bundle", "install", "--local", chdir: dir)
        assert status.success?, "bundle install --local of test/fixtures/#{name} failed (bin/setup installs its gems):\n#{out}"
      end
      dir
    end

    # Writes a suite into dir (the app's folder) and returns its path.
    def fixture_suite(dir, data)
      path = File.join(dir, "suite.yml")
      File.write(path, { "name" => "fixture", "app" => "config.ru", "concurrency" => [2], "duration_s" => 1,
                         "warmup_s" => 0, "repeats" => 1, "deployments" => 1, "engine" => "native" }.merge(data).to_yaml)
      path
    end

    # [Process::Status, stdout and stderr, the pid that ran] of bin/rackbench, from a clean shell's environment.
    def rackbench(*argv, chdir: tmpdir, env: {})
      out, err, status = Bundler.with_unbundled_env { Open3.capture3(env, BIN, *argv, chdir: chdir) }
      [status, "#{out}#{err}", status.pid]
    end

    def json_report(results)
      out, err, status = Bundler.with_unbundled_env { Open3.capture3(BIN, "report", "--results", results, "--format", "json") }
      assert status.success?, err
      JSON.parse(out)
    end
  end
end
