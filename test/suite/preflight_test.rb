# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

module Rackbench
  # Before anything starts, a suite's needs this machine lacks are named with
  # the one bin/setup command that installs them.
  class PreflightTest < Minitest::Test
    def preflight(extra)
      Preflight.new(Suite.load(write_suite({ "engine" => "native" }.merge(extra))))
    end

    def test_a_server_whose_gem_is_not_installed_is_named_with_the_extra_that_installs_it
      check = preflight("servers" => [{ "server" => "falcon" }, { "server" => "puma", "threads" => 2 }])
      Servers.fetch("falcon").stub(:gem_spec, nil) do
        assert_equal 1, check.missing.size, check.missing.inspect
        assert_match(%r{\Afalcon: gem falcon is not installed \(`bin/setup falcon` installs it}, check.missing.first)
        assert_equal ["falcon"], check.extras
        assert_equal "bin/setup falcon", check.command
      end
    end

    def test_a_missing_proxy_and_engine_join_the_server_in_one_command
      check = preflight("engine" => "wrk",
                        "servers" => [{ "server" => "falcon", "proxy" => { "proxy" => "haproxy" } }])
      find = Executable.method(:find)
      Servers.fetch("falcon").stub(:gem_spec, nil) do
        Proxies.fetch("haproxy").stub(:installed?, false) do
          Executable.stub(:find, ->(name, also_in: []) { find.call(name, also_in: also_in) unless name == "wrk" }) do
            assert_equal "bin/setup falcon haproxy wrk", check.command, check.missing.inspect
          end
        end
      end
    end

    def test_what_the_core_installs_is_named_as_bin_setup_alone
      check = preflight({})
      Servers.fetch("puma").stub(:gem_spec, nil) do
        assert_match(%r{\Apuma: gem puma is not installed \(`bin/setup` installs it}, check.missing.first)
        assert_empty check.extras
        assert_equal "bin/setup", check.command
      end
    end

    def test_a_bundled_app_whose_framework_is_left_out_names_its_extra
      check = preflight("app" => "rails")
      check.stub(:installed?, false) do
        assert_equal ["app rails: gem railties is not installed (`bin/setup rails` installs it)"], check.missing
        assert_equal "bin/setup rails", check.command
      end
    end

    def test_a_server_of_an_own_app_is_left_to_that_apps_bundle
      app = File.join(tmpdir, "app")
      FileUtils.mkdir_p(app)
      File.write(File.join(app, "config.ru"), "run ->(_env) { [200, {}, ['hello world']] }\n")
      check = preflight("app" => app)
      Servers.fetch("puma").stub(:gem_spec, nil) do
        assert_empty check.missing
        assert_nil check.command
      end
    end

    def test_nothing_missing_names_no_command
      check = preflight({})
      assert_empty check.missing
      assert_nil check.command
    end
  end
end
