# frozen_string_literal: true

require "test_helper"
require_relative "netns_lab"

module Rackbench
  module Hosts
    # A run's folder on one host of the lab (its own mount namespace: the
    # test's folder is empty there), through rsync and through scp.
    class RunFolderTest < Minitest::Test
      def setup
        why = NetnsLab.unavailable_reason
        skip why if why
        @lab = NetnsLab.new(%w[app], hide: [tmpdir]).start
        @supervisor = Supervisor.new
        host = Host.from_config("app", { "ssh" => "root@#{@lab.address("app")}", "ssh_config" => @lab.ssh_config,
                                         "run_dir" => @lab.run_dir("app") })
        @conn = @lab.in_control_namespace { Connection.new(host, supervisor: @supervisor, dir: tmpdir).open }
      end

      def teardown
        @conn&.close
        @supervisor&.stop_all
        @lab&.stop
        super
      end

      def run_dir = File.join(tmpdir, "runs", "7").tap { |d| FileUtils.mkdir_p(d) }
      def on_host(command) = @lab.host_shell("app", command).first

      def ships_and_fetches(rsync:)
        @conn.instance_variable_set(:@rsync, rsync)
        folder = RunFolder.new(@conn, local_dir: run_dir).open
        deployment = File.join(run_dir, "01-unicorn", "d1").tap { |d| FileUtils.mkdir_p(File.join(d, "probe")) }
        File.write(File.join(deployment, "unicorn.rb"), %(listen "#{deployment}/u.sock"\n))
        File.write(File.join(deployment, "server.log"), "rackbench's own log\n")
        folder.ship(deployment)
        remote = folder.map.call(deployment)
        assert_equal %(listen "#{remote}/u.sock"\n), on_host("cat #{remote}/unicorn.rb"), "shipped with the host's paths"
        assert_equal "", on_host("ls #{remote}/server.log 2>/dev/null"), "rackbench's own logs stay here"

        on_host("echo slot > #{remote}/probe/probe-1.jsonl && echo booted > #{remote}/unicorn.stderr")
        folder.fetch(deployment)
        assert_equal "slot\n", File.read(File.join(deployment, "probe", "probe-1.jsonl"))
        assert_equal "booted\n", File.read(File.join(deployment, "unicorn.stderr"))
        assert_equal "rackbench's own log\n", File.read(File.join(deployment, "server.log"))
        folder.close
        assert_equal "", on_host("ls -A #{@lab.run_dir("app")}")
      end

      def test_ships_and_fetches_by_scp
        ships_and_fetches(rsync: false)
      end

      def test_ships_and_fetches_by_rsync
        skip "rsync is not installed (bin/setup hosts)" unless Executable.available?("rsync")
        ships_and_fetches(rsync: true)
      end

      def test_a_folder_left_by_a_rackbench_that_is_gone_is_removed_by_the_next_run
        gone = RunFolder.owner.merge("pid" => 1, "start_ticks" => -1)
        other_machine = gone.merge("machine" => "elsewhere")
        base = @lab.run_dir("app")
        on_host("mkdir -p #{base}/gone #{base}/other && echo '#{JSON.generate(gone)}' > #{base}/gone/#{RunFolder::OWNER_FILE} " \
                "&& echo '#{JSON.generate(other_machine)}' > #{base}/other/#{RunFolder::OWNER_FILE}")
        folder = RunFolder.new(@conn, local_dir: run_dir).open
        assert_equal ["#{base}/gone/"], folder.removed_stale
        assert_equal ["other", File.basename(folder.root)].sort, on_host("ls #{base}").split.sort,
                     "another machine's folder is its own business"
        folder.close
      end

      def test_a_synced_app_and_the_probe_code_are_copied_and_mapped
        app = File.join(tmpdir, "shop", "config.ru").tap { |p| FileUtils.mkdir_p(File.dirname(p)) }
        File.write(app, "run ->(_) { [200, {}, []] }\n")
        folder = RunFolder.new(@conn, local_dir: run_dir, apps: [app], app_sync: true, explain: true).open
        assert_equal File.read(app), on_host("cat #{folder.map.call(app)}")
        middleware = folder.map.call(Probe::Wrapper::MIDDLEWARE)
        refute_equal Probe::Wrapper::MIDDLEWARE, middleware
        assert_equal File.read(Probe::Wrapper::MIDDLEWARE), on_host("cat #{middleware}")
        folder.close
      end
    end
  end
end
