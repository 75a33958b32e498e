# frozen_string_literal: true

require "test_helper"
require "minitest/mock"
require "bundler"

module Rackbench
  # What cannot run here names a `bin/setup NAME` that bin/setup takes, and
  # Extras reads the name back and runs the command.
  class ExtrasTest < Minitest::Test
    # The names bin/setup takes besides --list's: each JRuby server, and
    # apache_passenger for passenger (bin/setup's argument loop).
    ALIASES = %w[torquebox trinidad puma_jruby apache_passenger].freeze

    def assert_installable(reason)
      name = Extras.named_in(reason)
      refute_nil name, "names no bin/setup command: #{reason}"
      assert name.empty? || (Extras.names + ALIASES).include?(name), "bin/setup does not take #{name.inspect}: #{reason}"
    end

    def test_every_server_gem_left_out_names_a_command_bin_setup_takes
      Servers.names.map { |n| Servers.fetch(n) }.select(&:runs_in_app_bundle?).each do |server|
        server.stub(:gem_spec, nil) { assert_installable(server.unavailable_reason) }
      end
    end

    def test_every_proxy_service_and_engine_left_out_names_a_command_bin_setup_takes
      Proxies.names.map { |n| Proxies.fetch(n) }.each do |proxy|
        proxy.stub(:installed?, false) { assert_installable(proxy.unavailable_reason) }
      end
      Services.fetch("memcached").stub(:executable, nil) { assert_installable(Services.fetch("memcached").unavailable_reason) }
      Services.fetch("postgres").stub(:bindir, nil) { assert_installable(Services.fetch("postgres").unavailable_reason) }
      Executable.stub(:find, nil) do
        %w[wrk ab].each { |n| assert_installable(Engines.fetch(n).new.unavailable_reason) }
      end
    end

    # A Gemfile group the core bundle leaves out is installed by the extra of its name.
    def test_every_gemfile_group_but_the_core_ones_is_an_extra
      groups = Bundler::Dsl.evaluate(File.join(ROOT, "Gemfile"), nil, {}).dependencies.flat_map(&:groups).uniq
      assert_includes groups, :falcon
      assert_empty groups.map(&:to_s) - %w[default development] - Extras.names
    end

    def test_a_reason_names_an_extra_the_core_or_nothing
      assert_equal "falcon", Extras.named_in("gem falcon is not installed (`bin/setup falcon` installs it)")
      assert_equal "", Extras.named_in("gem puma is not installed (`bin/setup` installs it)")
      assert_nil Extras.named_in("run `bundle exec rake compile` (bin/setup does)")
    end

    def test_install_copies_the_setups_output_and_says_whether_it_succeeded
      assert Extras.install(%w[falcon haproxy], out: (out = StringIO.new), setup: fake_setup(0))
      assert_equal "installing falcon haproxy\n", out.string
      refute Extras.install([], out: StringIO.new, setup: fake_setup(1))
    end

    def fake_setup(status)
      path = File.join(tmpdir, "setup-#{status}")
      File.write(path, "#!/bin/sh\necho \"installing $*\"\nexit #{status}\n")
      File.chmod(0o755, path)
      path
    end
  end
end
