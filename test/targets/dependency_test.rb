# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  # A process the app depends on, found as a suite names it: by the port it
  # listens on, its pid file or its command name; sampled beside the server.
  class DependencyTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @supervisor.stop_all
      super
    end

    # A sleep under a name of its own (the kernel names a process after the file it ran).
    def sleeper(name = "rbdepsleeper")
      File.symlink(Executable.find("sleep"), File.join(tmpdir, name))
      @supervisor.spawn([File.join(tmpdir, name), "60"], name: name, log_path: nil)
    end

    def test_a_dependency_is_found_by_port_pid_file_or_command_name
      server = TCPServer.new("127.0.0.1", 0)
      assert_equal [Process.pid], Dependency.new({ "port" => server.addr[1] }).root_pids
      child = sleeper
      File.write(File.join(tmpdir, "app.pid"), "#{child.pid}\n")
      assert_equal [child.pid], Dependency.new({ "pid_file" => File.join(tmpdir, "app.pid") }).root_pids
      wait_until(message: "the sleeper to run") { Procfs.process_stat(child.pid)&.comm == "rbdepsleeper" }
      assert_equal [child.pid], Dependency.new({ "name" => "db", "command" => "rbdepsleeper" }).root_pids
    ensure
      server&.close
    end

    def test_a_dependency_not_running_is_one_clear_error
      port = Servers::Base.free_port
      error = assert_raises(ServiceError) { Dependency.new({ "name" => "postgres", "port" => port }).root_pids }
      assert_match(/\Adepends_on postgres: nothing this user can see listens on port #{port} /, error.message)
      error = assert_raises(ServiceError) { Dependency.new({ "command" => "no-such-daemon" }).root_pids }
      assert_equal "depends_on no-such-daemon: no process named no-such-daemon runs", error.message
    end

    def test_bad_entries_say_what_they_need
      assert_equal "needs one of port, pid_file, command to find the process", Dependency.problem({ "name" => "pg" })
      assert_equal "needs one of port, pid_file, command to find the process",
                   Dependency.problem({ "port" => 5432, "command" => "postgres" })
      assert_equal "port must be a TCP port (1-65535)", Dependency.problem({ "port" => 0 })
      assert_match(/unknown key "host"/, Dependency.problem({ "host" => "db", "port" => 5432 }))
      assert_nil Dependency.problem({ "name" => "redis", "command" => "redis-server" })
    end

    def test_its_cpu_memory_and_cpus_are_sampled_through_a_window
      child = sleeper
      sampler = DependencySampler.new([Dependency.running("sleeper", [child.pid])]).start
      used = sampler.stop
      assert_equal [child.pid], used["sleeper"]["root_pids"]
      assert_operator used["sleeper"]["rss_max_bytes"], :>, 0
      assert_equal Procfs.allowed_cpus(child.pid), used["sleeper"]["cpus_allowed"]
      assert_includes sampler.pids, child.pid
    end
  end
end
