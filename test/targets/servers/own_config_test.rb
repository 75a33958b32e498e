# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Puma and unicorn read the app's own config file (config:), and the
  # suite's knobs still decide where they listen and how many processes run.
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
  end
end
