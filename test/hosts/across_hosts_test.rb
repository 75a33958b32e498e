# frozen_string_literal: true

require "test_helper"
require "json"
require_relative "netns_lab"

module Rackbench
  # A suite across three machines built from network namespaces: servers on
  # the app host, load from two load hosts, rackbench itself in a control
  # namespace reaching them all over SSH. Each host has its own mount
  # namespace, in which the file's folder (each test's suite, results, an app
  # of its own) is an empty tmpfs and its run folder is a tmpfs of its own:
  # what a server needs gets there over SSH. One lab serves the file's tests
  # (each checks that its run left nothing on any host; what a failed one
  # left is cleared after it), and one finished run of both server kinds
  # serves the two tests that read one (#finished_run). Skips, saying why,
  # where namespaces cannot be created.
  class AcrossHostsTest < Minitest::Test
    HOSTS = %w[app load1 load2].freeze

    class << self
      attr_accessor :lab, :hidden_dir, :finished
    end

    def setup
      why = NetnsLab.unavailable_reason
      if why
        warn "AcrossHostsTest skipped: #{why}"
        skip why
      end
      @lab = shared_lab
    end

    def teardown
      @lab&.clear
      super
    end

    # The file's folder, which no host sees, and the lab that hides it.
    def shared_lab
      klass = self.class
      klass.hidden_dir ||= Dir.mktmpdir("rackbench-across").tap { |d| Minitest.after_run { FileUtils.rm_rf(d) } }
      klass.lab ||= NetnsLab.new(HOSTS, hide: [klass.hidden_dir]).start.tap { |lab| Minitest.after_run { lab.stop } }
    end

    # Each test's own folder, inside the one the hosts do not see.
    def tmpdir
      @tmpdir ||= Dir.mktmpdir("test", self.class.hidden_dir).tap { |d| (@tmpdirs ||= []) << d }
    end

    PUMA = [{ "server" => "puma", "threads" => 2 }].freeze
    # Two unicorns behind nginx, all on the app host: generated configs for both.
    UNICORNS_BEHIND_NGINX = [{ "server" => "unicorn", "workers" => 2, "instances" => 2,
                               "proxy" => { "proxy" => "nginx" } }].freeze

    def write_suite(duration_s:, servers: PUMA, **extra)
      path = File.join(tmpdir, "across.yml")
      File.write(path, {
        "name" => "across", "app" => "rack", "endpoints" => ["/hello"], "concurrency" => [4], "duration_s" => duration_s,
        "warmup_s" => 0, "engine" => "native", "repeats" => 1, "deployments" => 1, "pin" => false, "explain" => true,
        "hosts" => HOSTS.to_h do |h|
          [h, { "ssh" => "root@#{@lab.address(h)}", "ssh_config" => @lab.ssh_config, "run_dir" => @lab.run_dir(h) }]
        end,
        "server_host" => "app", "load_hosts" => %w[load1 load2], "servers" => servers
      }.merge(extra.transform_keys(&:to_s)).to_yaml)
      path
    end

    # One run, made by the first test that reads it: Puma (load from two
    # hosts) and two unicorns behind nginx (configs generated here) side by
    # side on the app host, serving an app that exists only here (app_sync:
    # true copies it), inside the probe (explain: true, its code shipped too).
    # Its folder is the file's, not a test's; that it left nothing on any host
    # is checked right after it. [results folder, the app's config.ru].
    def finished_run
      self.class.finished ||= begin
        @tmpdir = Dir.mktmpdir("finished", self.class.hidden_dir) # kept for the file's other test that reads it
        app = own_app
        suite = write_suite(duration_s: 1, servers: PUMA + UNICORNS_BEHIND_NGINX, app: app, app_sync: true, ratio: "turns")
        results, = run_to_end(["run", suite])
        assert_nothing_left_in_namespaces
        assert_run_folder_removed
        [results, app]
      end
    end

    # The stored run and the measurement of its `server` cell.
    def measurement_of(store, server)
      run = store.run
      [run, store.measurements(run["id"]).find { |m| m["server"] == server }]
    end

    def start_rackbench(duration_s:, **suite)
      cli(["run", write_suite(duration_s: duration_s, **suite)])
    end

    # rackbench's command line, run in the control namespace: [pid, results folder, log].
    def cli(argv, log_name: "rackbench.log")
      results = File.join(tmpdir, "results")
      log = File.join(tmpdir, log_name)
      pid = @lab.spawn([RbConfig.ruby, "-I", File.join(ROOT, "lib"), File.join(ROOT, "exe", "rackbench"), *argv,
                        "--results", results], log_path: log)
      [pid, results, log]
    end

    def run_to_end(argv, log_name: "rackbench.log")
      pid, results, log = cli(argv, log_name: log_name)
      _, status = Process.wait2(pid)
      assert status.success?, "rackbench #{argv.first} failed:\n#{File.read(log)}"
      [results, File.read(log)]
    end

    # An app of the test's own, in the test's folder (which no host sees):
    # it answers with the folder it was loaded from.
    def own_app
      dir = File.join(tmpdir, "own-app").tap { |d| FileUtils.mkdir_p(d) }
      File.write(File.join(dir, "config.ru"), <<~RUBY)
        run ->(_env) { [200, { "content-type" => "text/plain" }, ["served from \#{__dir__}"]] }
      RUBY
      File.join(dir, "config.ru")
    end

    def host_sees?(name, path) = @lab.host_shell(name, "test -e #{Shellwords.escape(path)}").last.success?

    def engine_output(cell_dir_glob, host)
      file = Dir[File.join(cell_dir_glob, "**", "native-*-#{host}.out")].first
      assert file, "the engine's output from #{host} is kept in the run folder"
      JSON.parse(File.readlines(file).find { |l| l.start_with?("{") })
    end

    def test_load_from_two_hosts_merges_exactly_and_the_server_is_sampled_on_its_host
      results, = finished_run
      refute host_sees?("app", results), "the app host has a file system of its own"

      store = Store.new(results)
      run, measurement = measurement_of(store, "puma")
      assert measurement.ok?, measurement.reason
      result = measurement.repeats.first.result
      puma_dir = deployment_dir(run, "puma")
      parts = %w[load1 load2].map { |h| engine_output(puma_dir, h) }

      assert_equal parts.sum { |p| p["requests"] }, result.requests
      assert_operator result.requests, :>, 0
      assert_equal Stats.merge_histograms(parts.map { |p| p["histogram"] }), result.histogram
      assert_equal(%w[load1 load2], result.hosts.map { |h| h["host"] })
      # the namespaces share one kernel clock: each offset is 0 within its uncertainty (half the round trip)
      result.hosts.each do |h|
        assert_operator h["clock_offset_s"].abs, :<=, h["clock_uncertainty_s"] + 1e-6, "#{h["host"]}'s clock: #{h}"
      end
      assert_probe_corrects_each_load_host(puma_dir, measurement)
      assert_equal [2, 2], parts.map { |p| p["connections"] }, "4 connections split over 2 hosts"
      assert(result.hosts.all? { |h| h["engine"]["version"].start_with?("rackbench-load") })
      assert(result.hosts.all? { |h| h["host_cpu_busy_share"].between?(0.0, 1.0) }, "each load host's CPU is read")
      assert_operator measurement.repeats.first.resources["pss_max_bytes"].to_i, :>, 10 * 1_048_576,
                      "puma's PSS on the app host (an ssh client's would be a few MB)"
      shares = Reports.fetch("hosts").new(run, store.measurements(run["id"])).render
      parts.each_with_index { |p, i| assert_match(/ load#{i + 1} +#{p["requests"]} /, shares) }
      store.close
    end

    # The folder of the run's deployments of `server` (NN-server-...).
    def deployment_dir(run, server)
      Dir[File.join(run["dir"], "[0-9][0-9]-#{server}*")].first.tap { |d| assert d, "#{server}'s folder in #{run["dir"]}" }
    end

    # nginx and two unicorns on the app host, from the configs rackbench
    # generated here and shipped there, serving an app that exists only here
    # (app_sync: true copies it), inside the probe (explain: true, its code
    # shipped too); the records, the servers' logs and each worker's memory
    # come back, so explain's capacity line is there.
    def test_a_proxy_and_servers_with_generated_configs_run_on_a_host_that_shares_no_files
      results, app = finished_run
      refute host_sees?("app", app), "the app host does not see the test's folder"

      store = Store.new(results)
      run, measurement = measurement_of(store, "unicorn")
      assert measurement.ok?, measurement.reason
      repeat = measurement.repeats.first
      assert_operator repeat.result.requests, :>, 0
      assert_operator repeat.resources["explain"]["n"], :>, 0, "the probe's records came back from the app host"
      deployment_dir = File.dirname(Dir[File.join(run["dir"], "**", "nginx.conf")].first)
      assert_includes File.read(File.join(deployment_dir, "nginx.conf")), "#{@lab.run_dir("app")}/",
                      "nginx.conf as it ran on the host: its paths in the host's run folder"
      assert File.exist?(File.join(deployment_dir, "nginx-error.log")), "nginx's own log came back"
      assert_equal 5, repeat.resources["memory"]["workers"].size,
                   "two workers of each unicorn and nginx's one, read on the app host (as WorkerMemory reads a local tree)"
      assert(repeat.resources["memory"]["workers"].all? { |w| w["uss_bytes"].positive? })
      store.close
      _, out, = run_cli("explain", run["id"].to_s, "--results", results)
      # the unicorns' capacity row (Puma's, beside it in the run, has one too)
      refute_empty out.lines.grep(/^unicorn .*MB shared \+ [\d.]+ MB per worker/),
                   "capacity from the workers' memory on the app host:\n#{out}"
    end

    def assert_run_folder_removed
      out, = @lab.host_shell("app", "ls -A #{Shellwords.escape(@lab.run_dir("app"))}")
      assert_equal "", out.strip, "the run's folder on the app host is removed at its end"
    end

    # explain: true: the probe on the app host got a clock correction per load
    # host's address (near 0 here: one kernel clock) and saw every request's stamp.
    def assert_probe_corrects_each_load_host(deployment_dir, measurement)
      probe = measurement.repeats.first.resources["explain"]
      assert_operator probe["n"], :>, 0, "the probe on the app host recorded the window"
      assert_equal probe["n"], probe["stamped"], "every request carried a load host's X-Request-Start"
      explain_ru = File.read(Dir[File.join(deployment_dir, "**", "explain.ru")].first)
      corrections = eval(explain_ru[/queue_corrections_us: (\{.*\})/, 1]) # rubocop:disable Security/Eval
      uncertainty_us = measurement.repeats.first.result.hosts.sum { |h| h["clock_uncertainty_s"] } * 1e6
      assert_equal([@lab.address("load1"), @lab.address("load2")], corrections.keys)
      assert(corrections.values.all? { |us| us.abs <= uncertainty_us + 1 }, "#{corrections} within #{uncertainty_us} us")
    end

    def test_sigterm_of_rackbench_leaves_nothing_on_any_host
      assert_killing_rackbench_leaves_nothing("TERM")
    end

    # kill -9 of rackbench mid-run: nothing runs on any host afterwards; its
    # run folder on the app host is left, and the resumed run (rackbench run
    # --resume) removes it, measures what was missing and removes its own.
    def test_sigkill_of_rackbench_leaves_nothing_on_any_host_and_the_resumed_run_cleans_up
      assert_killing_rackbench_leaves_nothing("KILL", duration_s: 4, servers: UNICORNS_BEHIND_NGINX)
      out, = @lab.host_shell("app", "ls -A #{Shellwords.escape(@lab.run_dir("app"))}")
      assert_equal 1, out.split.size, "the killed run's folder is left on the app host: #{out}"

      results, = run_to_end(["run", "--resume"], log_name: "resumed.log")
      store = Store.new(results)
      assert_equal "finished", store.run["status"]
      assert(store.measurements(store.run["id"]).all?(&:ok?))
      store.close
      assert_nothing_left_in_namespaces
      assert_run_folder_removed
    end

    def assert_killing_rackbench_leaves_nothing(signal, duration_s: 30, servers: PUMA)
      pid, _, log = start_rackbench(duration_s: duration_s, servers: servers)
      # The run's start (SSH, the engine's install, the server's boot) took 34 s at load 24: 120 s to reach
      # its load, looked at 5 times a second (each look reads every process's namespace).
      wait_until(timeout_s: 120, message: "load running on both load hosts") do
        flunk "rackbench ended early:\n#{File.read(log)}" if Process.wait(pid, Process::WNOHANG)
        %w[load1 load2].all? { |h| @lab.pids(h).any? { |p| executable_of(p) == "rackbench-load" } } || !sleep(0.15)
      end
      server = servers.first["server"]
      assert(@lab.pids("app").any? { |p| command_of(p).include?(server) }, "#{server} runs on the app host")
      Process.kill(signal, pid)
      Process.wait(pid)
      assert_nothing_left_in_namespaces
    end

    def executable_of(pid)
      File.basename(File.readlink("/proc/#{pid}/exe"))
    rescue Errno::ENOENT, Errno::ESRCH, Errno::EACCES
      ""
    end

    def command_of(pid)
      File.read("/proc/#{pid}/cmdline").tr("\0", " ")
    rescue Errno::ENOENT, Errno::ESRCH
      ""
    end

    def assert_nothing_left_in_namespaces(timeout_s: 5)
      left = wait_until(timeout_s: timeout_s, message: "no process left in any namespace") do
        pids = HOSTS.to_h { |h| [h, @lab.pids(h)] }
        pids.values.all?(&:empty?) ? pids : nil
      end
      assert(left.values.all?(&:empty?))
    end
  end
end
