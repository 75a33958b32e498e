# frozen_string_literal: true

require "test_helper"
require "bundler"
require "json"
require "open3"
require "yaml"

module Rackbench
  # A real Rails app, as a new user meets rackbench: `rails new` (Rails 7.2,
  # SQLite, one scaffold, Bootsnap as in a default app) with puma and unicorn
  # in its own Gemfile, installed without a network (`bundle install --local`;
  # bin/setup installs the gems), then `rackbench init` and the suite it wrote,
  # plus a scaffold POST in a mix.
  class RailsAppTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")
    RAILS = "7.2.4"

    # `rails new`, a bundle, two Rails servers' steady warm-ups and a ratio
    # window a start: 66 s on a quiet machine, past 240 s at load 40-50.
    def time_limit_s = [TestDeadline::TEST_TIMEOUT_S, 480].max

    def sh(*argv, chdir:)
      out, status = Bundler.with_unbundled_env { Open3.capture2e(*argv, chdir: chdir) }
      assert status.success?, "#{argv.join(" ")} failed:\n#{out}"
      out
    end

    def rails_app
      # Bootsnap, which --minimal leaves out: the app boots for the scaffold, its setup, and puma and
      # unicorn's two workers in init and again in the run, all but the first from its cache.
      sh("rails", "_#{RAILS}_", "new", "shop", "--minimal", "--no-skip-bootsnap", "--skip-bundle", "--skip-git", "--skip-test",
         "--skip-system-test", "--skip-docker", "--skip-rubocop", "--skip-brakeman", "--skip-ci", "--skip-kamal",
         "--skip-asset-pipeline", chdir: tmpdir)
      dir = File.join(tmpdir, "shop")
      gemfile = File.read(File.join(dir, "Gemfile")).lines.grep_v(/gem "(debug|tzinfo-data)"/).join
      File.write(File.join(dir, "Gemfile"), "#{gemfile}gem \"unicorn\"\n")
      sh("bundle", "install", "--local", chdir: dir)
      sh("bin/rails", "generate", "scaffold", "item", "name:string", chdir: dir)
      # A benchmark posts without a form's CSRF token.
      controller = File.join(dir, "app", "controllers", "items_controller.rb")
      File.write(controller, File.read(controller).sub("class ItemsController < ApplicationController\n",
                                                       "\\0  skip_forgery_protection\n"))
      dir
    end

    def test_init_and_run_a_rails_scaffold_on_puma_and_unicorn_from_the_apps_bundle
      dir = rails_app
      out = sh(BIN, "init", dir, chdir: dir)
      assert_match(/rails app in .*; servers in its bundle: puma, unicorn/, out)
      suite = YAML.safe_load_file(File.join(dir, "rackbench.yml"))
      assert_equal(%w[/items /items/new /up], suite["endpoints"].map { |e| e["path"] })
      assert_equal ["bin/rails db:prepare"], suite["setup"]

      suite["endpoints"] << { "name" => "create", "path" => "/items", "method" => "POST", "expect_status" => 302,
                              "form" => { "item[name]" => "widget" }, "headers" => { "X-Forwarded-Proto" => "https" } }
      suite["mix"] = [{ "endpoint" => "/items", "weight" => 4 }, { "endpoint" => "create", "weight" => 1 }]
      suite["servers"].each { |s| s["endpoints"] = ["/items", "mix"] } # two cells a server keep the test short
      File.write(File.join(dir, "rackbench.yml"), suite.to_yaml)
      results = File.join(tmpdir, "results")
      out, status = Open3.capture2e(BIN, "run", "rackbench.yml", "--smoke", "--results", results, chdir: dir)
      assert status.success?, out

      data = JSON.parse(sh(BIN, "report", "--results", results, "--format", "json", chdir: dir))
      lock = File.read(File.join(dir, "Gemfile.lock"))
      assert_equal RAILS, data["run"]["machine"]["app_bundles"].values.first["gems"]["rails"]
      cells = data["cells"]
      assert_equal(%w[puma unicorn], cells.map { |c| c["server"] }.uniq)
      cells.each do |cell|
        assert_equal "ok", cell["status"], "#{cell["label"]} #{cell["endpoint"]}: #{cell["reason"]}"
        assert_equal lock[/^    #{cell["server"]} \(([^)]+)\)/, 1], cell["server_version"]
      end
      mix = cells.find { |c| c["endpoint"] == "mix" && c["server"] == "unicorn" }["repeats"].first["result"]
      create = mix["endpoints"].find { |e| e["name"] == "create" }
      assert_operator create["requests"], :>, 0
      assert_equal 0, create["errors"]["check"], "every POST answered 302 (created, redirected to the item)"
      assert_nothing_left
    end
  end
end
