# frozen_string_literal: true

require "test_helper"
require_relative "../integration/fixture_app_helper"

module Rackbench
  # What an app's bundle loads here, asked of Bundler under the app's
  # Gemfile: the pooled fixture's falcon group is optional, so its bundle
  # has falcon in the Gemfile.lock but does not load it.
  class AppBundleInstalledTest < Minitest::Test
    include FixtureAppHelper

    def test_an_optional_group_not_asked_for_is_not_installed_and_the_reason_says_how_to_add_it
      bundle = AppBundle.for(File.join(installed_fixture_app("pooled"), "config.ru"))
      assert bundle.gems.key?("falcon"), "falcon is in the Gemfile.lock"
      installed = bundle.installed
      assert_nil installed.problem
      assert installed.gem?("puma")
      assert installed.gem?("iodine")
      refute installed.gem?("falcon")
      assert_nil Servers.fetch("puma").unavailable_reason_in(bundle)
      reason = Servers.fetch("falcon").unavailable_reason_in(bundle)
      assert_match(/\Afalcon is in Gemfile\.lock but its group \(falcon\) is not installed here /, reason)
      assert_includes reason, "`bundle config set --local with falcon && bundle install`"
      assert_match(/has no unicorn: run `bundle add unicorn`/, Servers.fetch("unicorn").unavailable_reason_in(bundle))
    end

    def test_a_group_left_out_with_without_is_not_installed_either
      bundle = AppBundle.for(File.join(fixture_app("pooled", bundle_config: { "without" => "iodine" }), "config.ru"))
      refute bundle.installed.gem?("iodine")
      assert_match(/its group \(iodine\) is not installed here/, Servers.fetch("iodine").unavailable_reason_in(bundle))
    end

    def test_a_bundle_never_installed_says_to_run_bundle_install
      dir = File.join(tmpdir, "shop")
      FileUtils.mkdir_p(dir)
      File.write(File.join(dir, "Gemfile"), "source 'https://rubygems.org'\ngem 'puma'\ngem 'no-such-gem-rackbench', '99.0'\n")
      File.write(File.join(dir, "config.ru"), "run ->(_) { [200, {}, []] }\n")
      reason = Servers.fetch("puma").unavailable_reason_in(AppBundle.for(File.join(dir, "config.ru")))
      assert_match(/\ABundler cannot load .*Gemfile: .*no-such-gem-rackbench.*\(run `bundle install` in /, reason)
    end

    def test_a_run_fails_a_server_whose_group_is_not_installed_before_starting_anything
      app = installed_fixture_app("pooled")
      store = Store.new(File.join(tmpdir, "results"))
      suite = Suite.load(fixture_suite(app, "env" => { "WEB_CONCURRENCY" => 0, "MAX_THREADS" => 2 }, "endpoints" => ["/health"],
                                            "servers" => [{ "server" => "puma", "threads" => 2 }, { "server" => "falcon" }]))
      cells = store.cells(Runner.new(suite, store: store).run)
      assert_equal(%w[ok failed], cells.map { |c| c["status"] })
      assert_match(/\Afalcon cannot run here: falcon is in Gemfile\.lock but its group \(falcon\) is not installed/,
                   cells[1]["reason"])
      assert_empty Dir[File.join(tmpdir, "results", "runs", "*", "02-*")], "nothing of falcon's was started"
      assert_nothing_left
    ensure
      store&.close
    end
  end
end
