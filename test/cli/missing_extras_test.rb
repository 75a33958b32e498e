# frozen_string_literal: true

require "test_helper"
require "minitest/mock"
require "bundler"
require "yaml"

module Rackbench
  # A suite that names a server this machine lacks says so before anything
  # starts, with the command that installs it; the other servers are measured.
  class MissingExtrasTest < Minitest::Test
    def test_a_missing_server_is_named_with_its_bin_setup_command_first_and_the_rest_still_runs
      suite = write_suite("duration_s" => 0.3, "servers" => [{ "server" => "itsi" }, { "server" => "puma", "threads" => 2 }])
      # As on a machine where `bin/setup itsi` never ran.
      status, out, err = Servers.fetch("itsi").stub(:gem_spec, nil) do
        run_cli("run", "--results", tmpdir, "--no-doctor", suite)
      end
      assert_equal 3, status, "#{out}\n#{err}"
      # (A line about processes another, dead rackbench left may come first on a shared machine.)
      missing = err.lines.grep(/cannot run here/)
      assert_match %r{\Arackbench: cannot run here, its cells will fail: itsi: itsi-server \S+ is not installed in vendor/itsi },
                   missing.first, err
      assert_includes missing.first, "(`bin/setup itsi` runs:"
      store = Store.new(tmpdir)
      assert_equal(%w[failed ok], store.cells(store.run["id"]).map { |c| c["status"] })
    ensure
      store&.close
    end

    # As on a machine where the falcon group was never installed: Bundler's
    # view without it, in a rackbench of its own.
    def test_a_server_left_out_of_the_bundle_names_the_one_command_that_installs_it
      suite = write_suite("engine" => "native", "servers" => [{ "server" => "falcon" }])
      ran = Supervisor.run([RbConfig.ruby, File.join(ROOT, "bin", "rackbench"), "run", suite, "--results", tmpdir, "--no-doctor"],
                           timeout_s: 120, env: { "BUNDLE_APP_CONFIG" => bundle_config_without("falcon") })
      assert_equal 3, ran.status.exitstatus, ran.output
      assert_match(/^rackbench: cannot run here, its cells will fail: falcon: gem falcon is not installed /, ran.stderr)
      assert_match(%r{^rackbench: `bin/setup falcon` installs what is missing \(or: rackbench run --install\)$}, ran.stderr)
      assert_includes ran.stdout, "falcon cannot run here: gem falcon is not installed (`bin/setup falcon` installs it"
    end

    def test_install_runs_bin_setup_for_what_is_missing_then_the_same_run_without_it
      suite = write_suite("engine" => "native", "servers" => [{ "server" => "falcon" }])
      installed = nil
      restarted = nil
      Servers.fetch("falcon").stub(:gem_spec, nil) do
        Extras.stub(:install, ->(names, out:) { out.puts("bin/setup: ready") || (installed = names) }) do
          Watchdog.current.stub(:close, nil) do
            Kernel.stub(:exec, ->(*argv) { throw :restarted, restarted = argv }) do
              catch(:restarted) { run_cli("run", suite, "--install", "--no-doctor") }
            end
          end
        end
      end
      assert_equal ["falcon"], installed
      assert_equal [RbConfig.ruby, File.join(ROOT, "bin", "rackbench"), "run", suite, "--no-doctor"], restarted
    end

    private

    # A folder holding the checkout's Bundler settings with group left out too. (BUNDLE_WITHOUT
    # in the environment would not do: the checkout's own `without`, which bin/setup sets, wins.)
    def bundle_config_without(group)
      local = Bundler.app_config_path.join("config")
      settings = (local.exist? && YAML.load_file(local)) || {}
      settings["BUNDLE_WITHOUT"] = [*Bundler.settings[:without], group].uniq.join(":")
      File.join(tmpdir, "bundle-config").tap do |dir|
        FileUtils.mkdir_p(dir)
        File.write(File.join(dir, "config"), settings.to_yaml)
      end
    end
  end
end
