# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Puma, unicorn and pitchfork read the app's own config file (config:),
  # and the suite's knobs still decide where they listen and how many
  # processes run; every entry takes its own env: and setup:.
  class OwnConfigTest < Minitest::Test
    def app
      FileUtils.mkdir_p(File.join(tmpdir, "config"))
      File.write(File.join(tmpdir, "config", "server.rb"), "# the app's own\n")
      File.join(tmpdir, "config.ru")
    end

    def test_puma_passes_the_apps_config_file_with_its_own_flags
      argv = Servers.fetch("puma").new("server" => "puma", "threads" => 3, "config" => "config/server.rb")
                    .command(app: app, bind: Servers::Base::Bind.new(port: 9), dir: tmpdir)
      assert_equal File.join(tmpdir, "config", "server.rb"), argv[argv.index("--config") + 1]
      assert_equal "3:3", argv[argv.index("--threads") + 1]
    end

    def test_unicorn_reads_the_apps_config_file_first_then_the_suites_knobs
      Servers.fetch("unicorn").new("server" => "unicorn", "workers" => 2, "config" => "config/server.rb")
             .command(app: app, bind: Servers::Base::Bind.new(port: 9), dir: tmpdir)
      generated = File.read(File.join(tmpdir, "unicorn.rb")).lines
      assert_equal "instance_eval(File.read(#{File.join(tmpdir, "config", "server.rb").inspect}), " \
                   "#{File.join(tmpdir, "config", "server.rb").inspect})\n", generated.first
      assert_includes generated, "worker_processes 2\n"
    end

    def test_pitchfork_reads_the_apps_config_file_first_then_the_suites_knobs
      Servers.fetch("pitchfork").new("server" => "pitchfork", "workers" => 3, "config" => "config/server.rb")
             .command(app: app, bind: Servers::Base::Bind.new(port: 9), dir: tmpdir)
      generated = File.read(File.join(tmpdir, "pitchfork.rb")).lines
      assert_equal "instance_eval(File.read(#{File.join(tmpdir, "config", "server.rb").inspect}), " \
                   "#{File.join(tmpdir, "config", "server.rb").inspect})\n", generated.first
      assert_includes generated, "worker_processes 3\n"
    end

    def test_an_entrys_env_and_setup_are_its_own_and_checked
      puma = Servers.fetch("puma").new("server" => "puma", "env" => { "MAX_THREADS" => 4 }, "setup" => ["bin/warm"])
      assert_equal({ "MAX_THREADS" => "4" }, puma.validate!.entry_env)
      assert_equal ["bin/warm"], puma.setup
      error = assert_raises(ConfigError) { Servers.fetch("puma").new("server" => "puma", "env" => { "A" => [1] }).validate! }
      assert_includes error.message, '"env" must map names to strings or numbers'
      error = assert_raises(ConfigError) { Servers.fetch("iodine").new("server" => "iodine", "setup" => "make").validate! }
      assert_equal 'server iodine: "setup" must be a list of commands, got "make"', error.message
    end
  end
end
