# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The app's own bundle: found from the config.ru up, read from its
  # Gemfile.lock, and wrapped around a server's argv.
  class AppBundleTest < Minitest::Test
    LOCK = <<~LOCK
      GEM
        remote: https://rubygems.org/
        specs:
          nio4r (2.7.5)
          puma (6.4.3)
            nio4r (~> 2.0)
          nokogiri (1.16.0-x86_64-linux)

      RUBY VERSION
         ruby 3.1.2p20

      BUNDLED WITH
         2.3.15
    LOCK

    def app
      begin
        FileUtils.mkdir_p(File.join(tmpdir, "shop", "web"))
        File.write(File.join(tmpdir, "shop", "Gemfile"), "gem 'puma'\n")
        File.write(File.join(tmpdir, "shop", "Gemfile.lock"), LOCK)
        File.write(File.join(tmpdir, "shop", "web", "config.ru"), "run ->(_) { [200, {}, []] }\n")
      end
      File.join(tmpdir, "shop", "web", "config.ru")
    end

    def test_the_gemfile_of_an_ancestor_folder_is_the_apps_bundle_and_rackbenchs_own_is_not
      bundle = AppBundle.for(app)
      assert_equal File.join(tmpdir, "shop", "Gemfile"), bundle.gemfile
      assert_nil AppBundle.for(File.join(ROOT, "apps", "rack", "config.ru"))
    end

    def test_versions_ruby_and_digest_come_from_the_gemfile_lock
      bundle = AppBundle.for(app)
      assert_equal "6.4.3", bundle.version("puma")
      assert_equal "1.16.0", bundle.version("nokogiri")
      assert_equal "3.1.2", bundle.ruby_version
      assert_equal Digest::SHA256.hexdigest(LOCK), bundle.to_h["gemfile_lock_sha256"]
    end

    def test_a_server_gem_the_bundle_lacks_is_one_error_naming_the_gem_and_the_fix
      error = assert_raises(ServiceError) { AppBundle.for(app).check!("unicorn") }
      assert_includes error.message, "has no unicorn: run `bundle add unicorn`"
      assert_nil AppBundle.for(app).check!("puma")
    end

    def test_a_gem_executable_runs_through_bundle_exec_under_the_apps_gemfile
      bundle = AppBundle.for(app)
      argv = bundle.wrap([RbConfig.ruby, "/gems/puma-8.0.2/bin/puma", "-b", "tcp://127.0.0.1:1"])
      assert_equal [RbConfig.ruby, "exec", "puma", "-b", "tcp://127.0.0.1:1"], argv.values_at(0, 2..)
      assert_match(/bundle\z/, argv[1])
      assert_equal File.join(tmpdir, "shop", "Gemfile"), bundle.env["BUNDLE_GEMFILE"]
      assert bundle.env.key?("RUBYOPT") && bundle.env["RUBYOPT"].nil?, "rackbench's own -rbundler/setup is dropped"
    end
  end
end
