# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "rackbench"
require "minitest/autorun"
require "tmpdir"
require "fileutils"
require "timeout"

module Rackbench
  # Helpers shared by the tests: temporary folders, deadlines instead of sleeps,
  # and the check that no process rackbench started is left behind.
  module TestHelpers
    def tmpdir
      @tmpdir ||= Dir.mktmpdir("rackbench-test").tap { |d| (@tmpdirs ||= []) << d }
    end

    def teardown
      kill_and_reap(@end_at_teardown || [])
      (@tmpdirs || []).each { |d| FileUtils.rm_rf(d) }
      super
    end

    # pid, a process the test spawned, is killed and reaped at teardown if it is still there; returns pid.
    def end_at_teardown(pid)
      (@end_at_teardown ||= []) << pid
      pid
    end

    # Kills (KILL) and reaps each of the test's own children in pids that is still there.
    def kill_and_reap(pids)
      pids.each do |pid|
        Process.kill("KILL", pid)
        Process.wait(pid)
      rescue SystemCallError
        nil
      end
    end

    # How long a test waits for what a killed owner started to end: a safety
    # net far from the fraction of a second the Watchdog takes (its grace
    # period included), so a loaded machine cannot fail it and a leak still does.
    CLEANUP_DEADLINE_S = 30

    # Polls the block until it is truthy or the monotonic deadline passes.
    def wait_until(timeout_s: 10, message: "condition")
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
      loop do
        value = yield
        return value if value

        flunk "#{message} not met within #{timeout_s}s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep 0.05
      end
    end

    def leftovers(owner_pid = Process.pid)
      Supervisor.processes_of(owner_pid)
    end

    # Fails naming every process left (pid and command line), then ends them
    # (they carry this test process's marker: they are ours), so one leak
    # fails one test instead of every later test of the shard.
    def assert_nothing_left(owner_pid = Process.pid)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
      left = leftovers(owner_pid)
      while !left.empty? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
        sleep 0.05
        left = leftovers(owner_pid)
      end
      return pass if left.empty?

      described = left.map { |pid| "#{pid} #{command_line(pid)}" }
      Supervisor.signal_pids(left, "KILL")
      flunk "no process left, but within 5 s these remained:\n#{described.join("\n")}"
    end

    def command_line(pid) = Procfs.command_line(pid)&.strip&.[](0, 200) || "(gone)"

    def suite_yaml(extra = {})
      {
        "name" => "test", "app" => "rack", "endpoints" => ["/hello"], "concurrency" => [2],
        "duration_s" => 1, "warmup_s" => 0, "engine" => "wrk", "repeats" => 1, "deployments" => 1,
        "servers" => [{ "server" => "puma", "threads" => 2 }]
      }.merge(extra).to_yaml
    end

    # Writes each { relative path => text } under dir, its folders made; returns dir.
    def write_files(files, dir = tmpdir)
      files.each do |name, text|
        path = File.join(dir, name)
        FileUtils.mkdir_p(File.dirname(path))
        File.write(path, text)
      end
      dir
    end

    # A config.ru of body in the test's folder; returns its path.
    def write_rackup(body) = File.join(write_files("config.ru" => body), "config.ru")

    def write_suite(extra = {}, name = "suite.yml")
      path = File.join(tmpdir, name)
      File.write(path, suite_yaml(extra))
      path
    end

    def run_cli(*argv)
      out = StringIO.new
      err = StringIO.new
      status = CLI.start(argv, out: out, err: err)
      [status, out.string, err.string]
    end
  end
end

Minitest::Test.include(Rackbench::TestHelpers)

# A watchdog per test: a hung server or engine fails that one test (its ensure
# blocks still stop what it started) instead of hanging the suite and CI.
module Rackbench
  module TestDeadline
    TEST_TIMEOUT_S = Integer(ENV.fetch("RACKBENCH_TEST_TIMEOUT_S", "240"))

    # A test class that runs whole suites (the seed smoke runs start JVMs) may
    # give itself longer by defining time_limit_s (not test_*: Minitest would run it as a test).
    def time_limit_s = TEST_TIMEOUT_S

    def run
      limit = time_limit_s
      Timeout.timeout(limit, Timeout::Error, "test ran past #{limit}s") { super }
    end
  end
end
Minitest::Test.prepend(Rackbench::TestDeadline)
