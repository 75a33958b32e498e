# frozen_string_literal: true

require "test_helper"
require "json"
require_relative "netns_lab"

module Rackbench
  # A suite across three machines built from network namespaces: puma on the
  # app host, load from two load hosts, rackbench itself in a control
  # namespace reaching them all over SSH. Skips, saying why, where namespaces
  # cannot be created.
  class AcrossHostsTest < Minitest::Test
    HOSTS = %w[app load1 load2].freeze

    def setup
      why = NetnsLab.unavailable_reason
      if why
        warn "AcrossHostsTest skipped: #{why}"
        skip why
      end
      @lab = NetnsLab.new(HOSTS).start
    end

    def teardown
      @lab&.stop
      super
    end

    def write_suite(duration_s:)
      path = File.join(tmpdir, "across.yml")
      File.write(path, {
        "name" => "across", "app" => "rack", "endpoints" => ["/hello"], "concurrency" => [4], "duration_s" => duration_s,
        "warmup_s" => 0, "engine" => "native", "repeats" => 1, "deployments" => 1, "pin" => false, "explain" => true,
        "hosts" => HOSTS.to_h { |h| [h, { "ssh" => "root@#{@lab.address(h)}", "ssh_config" => @lab.ssh_config }] },
        "server_host" => "app", "load_hosts" => %w[load1 load2], "servers" => [{ "server" => "puma", "threads" => 2 }]
      }.to_yaml)
      path
    end

    def start_rackbench(duration_s:)
      results = File.join(tmpdir, "results")
      log = File.join(tmpdir, "rackbench.log")
      pid = @lab.spawn([RbConfig.ruby, "-I", File.join(ROOT, "lib"), File.join(ROOT, "exe", "rackbench"), "run",
                        write_suite(duration_s: duration_s), "--results", results], log_path: log)
      [pid, results, log]
    end

    def engine_output(cell_dir_glob, host)
      file = Dir[File.join(cell_dir_glob, "**", "native-*-#{host}.out")].first
      assert file, "the engine's output from #{host} is kept in the run folder"
      JSON.parse(File.readlines(file).find { |l| l.start_with?("{") })
    end

    def test_load_from_two_hosts_merges_exactly_and_the_server_is_sampled_on_its_host
      pid, results, log = start_rackbench(duration_s: 1)
      _, status = Process.wait2(pid)
      assert status.success?, "rackbench run failed:\n#{File.read(log)}"

      store = Store.new(results)
      run = store.run
      measurement = store.measurements(run["id"]).first
      assert measurement.ok?, measurement.reason
      result = measurement.repeats.first.result
      parts = %w[load1 load2].map { |h| engine_output(run["dir"], h) }

      assert_equal parts.sum { |p| p["requests"] }, result.requests
      assert_operator result.requests, :>, 0
      assert_equal Stats.merge_histograms(parts.map { |p| p["histogram"] }), result.histogram
      assert_equal(%w[load1 load2], result.hosts.map { |h| h["host"] })
      # the namespaces share one kernel clock: each offset is 0 within its uncertainty (half the round trip)
      result.hosts.each do |h|
        assert_operator h["clock_offset_s"].abs, :<=, h["clock_uncertainty_s"] + 1e-6, "#{h["host"]}'s clock: #{h}"
      end
      assert_probe_corrects_each_load_host(run, measurement)
      assert_equal [2, 2], parts.map { |p| p["connections"] }, "4 connections split over 2 hosts"
      assert(result.hosts.all? { |h| h["engine"]["version"].start_with?("rackbench-load") })
      assert(result.hosts.all? { |h| h["host_cpu_busy_share"].between?(0.0, 1.0) }, "each load host's CPU is read")
      assert_operator measurement.repeats.first.resources["pss_max_bytes"].to_i, :>, 10 * 1_048_576,
                      "puma's PSS on the app host (an ssh client's would be a few MB)"
      shares = Reports.fetch("hosts").new(run, store.measurements(run["id"])).render
      parts.each_with_index { |p, i| assert_match(/ load#{i + 1} +#{p["requests"]} /, shares) }
      store.close
      assert_nothing_left_in_namespaces
    end

    # explain: true: the probe on the app host got a clock correction per load
    # host's address (near 0 here: one kernel clock) and saw every request's stamp.
    def assert_probe_corrects_each_load_host(run, measurement)
      probe = measurement.repeats.first.resources["explain"]
      assert_operator probe["n"], :>, 0, "the probe on the app host recorded the window"
      assert_equal probe["n"], probe["stamped"], "every request carried a load host's X-Request-Start"
      explain_ru = File.read(Dir[File.join(run["dir"], "**", "explain.ru")].first)
      corrections = eval(explain_ru[/queue_corrections_us: (\{.*\})/, 1]) # rubocop:disable Security/Eval
      uncertainty_us = measurement.repeats.first.result.hosts.sum { |h| h["clock_uncertainty_s"] } * 1e6
      assert_equal([@lab.address("load1"), @lab.address("load2")], corrections.keys)
      assert(corrections.values.all? { |us| us.abs <= uncertainty_us + 1 }, "#{corrections} within #{uncertainty_us} us")
    end

    def test_sigterm_of_rackbench_leaves_nothing_on_any_host
      assert_killing_rackbench_leaves_nothing("TERM")
    end

    def test_sigkill_of_rackbench_leaves_nothing_on_any_host
      assert_killing_rackbench_leaves_nothing("KILL")
    end

    def assert_killing_rackbench_leaves_nothing(signal)
      pid, _, log = start_rackbench(duration_s: 30)
      wait_until(timeout_s: 60, message: "load running on both load hosts") do
        flunk "rackbench ended early:\n#{File.read(log)}" if Process.wait(pid, Process::WNOHANG)
        %w[load1 load2].all? { |h| @lab.pids(h).any? { |p| executable_of(p) == "rackbench-load" } }
      end
      assert(@lab.pids("app").any? { |p| command_of(p).start_with?("puma ") }, "puma runs on the app host")
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
