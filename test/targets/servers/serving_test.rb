# frozen_string_literal: true

require_relative "server_helper"

# Every server that bin/setup installs, in the configurations the seeds turned,
# serving the bundled Rack app's /hello under a short real load with 0 errors.
class ServingTest < Minitest::Test
  include Rackbench::ServerTestHelpers

  ENTRIES = {
    "puma_single" => { "server" => "puma", "threads" => 4 },
    "puma_cluster_preloaded" => { "server" => "puma", "workers" => 2, "threads" => 2, "preload" => true },
    "puma_fork_worker" => { "server" => "puma", "workers" => 2, "threads" => 2, "fork_worker" => true },
    "unicorn_preloaded" => { "server" => "unicorn", "workers" => 2, "preload" => true },
    "thin" => { "server" => "thin" },
    "thin_threaded" => { "server" => "thin", "threads" => 4 },
    "webrick" => { "server" => "webrick" },
    "falcon_forked" => { "server" => "falcon", "workers" => 2 },
    "falcon_hybrid" => { "server" => "falcon", "model" => "hybrid", "workers" => 2, "threads" => 2 },
    "pitchfork_reforking" => { "server" => "pitchfork", "workers" => 2, "refork_after" => [50, 100] },
    "iodine" => { "server" => "iodine", "workers" => 2, "threads" => 2 },
    "agoo" => { "server" => "agoo", "threads" => 2 },
    "mongrel" => { "server" => "mongrel" },
    "itsi_single" => { "server" => "itsi", "threads" => 4 },
    "command_template" => { "server" => "command", "command" => "puma -b tcp://127.0.0.1:{port} -t {threads}:{threads} {app}",
                            "threads" => 2, "ready_url" => "/hello" }
  }.freeze

  ENTRIES.each do |name, config|
    define_method("test_#{name}_serves_hello_under_load_without_errors") { assert_serves_hello(config) }
  end

  # 001_466a5bc59083a463.txt: `thin start -s4 --socket`, behind nginx with 3 workers.
  def test_thin_cluster_on_unix_sockets_behind_nginx_serves_without_errors
    result = assert_serves_hello({ "server" => "thin", "instances" => 4, "bind" => "unix",
                                   "proxy" => { "proxy" => "nginx", "workers" => 3 } })
    sockets = @deployment.backends.map(&:socket_path)
    assert_equal 4, sockets.uniq.size
    assert(sockets.all? { |s| File.socket?(s) }, "each thin listens on its own socket")
    assert_operator result.requests, :>, 100
  end

  # 004_d5fd84afbf770cf8.txt: a 3-node Mongrel cluster behind lighttpd.
  def test_mongrel_cluster_behind_lighttpd_serves_without_errors
    assert_serves_hello({ "server" => "mongrel", "instances" => 3,
                          "proxy" => { "proxy" => "lighttpd", "balance" => "round-robin" } })
    assert_equal 3, @deployment.backends.size
  end

  # itsi in cluster mode, on a Unix socket (itsi_single serves on TCP), under load
  def test_itsi_on_a_unix_socket_serves_with_its_workers_and_keeps_its_pid_file_in_the_run_folder
    assert_serves_hello({ "server" => "itsi", "workers" => 2, "threads" => 2, "bind" => "unix" }, warmup_requests: 5)
    assert File.socket?(@deployment.bind.socket_path)
    leader = @deployment.pids.first
    workers = Rackbench::Procfs.process_stats.count { |stat| stat.ppid == leader }
    assert_equal 2, workers, "itsi forked its two workers"
    assert_equal leader, File.read(File.join(tmpdir, "itsi.pid")).to_i
    refute File.exist?(File.join(File.dirname(HELLO_APP), ".itsi.pid")), "nothing written into the app's folder"
  end

  def test_passenger_standalone_serves_hello_under_load_and_leaves_no_watchdog_behind_after_stop
    assert_serves_hello({ "server" => "passenger", "workers" => 2 })
    pid_file = File.join(tmpdir, "passenger.pid")
    assert File.exist?(pid_file), "passenger start wrote its pid file in the run folder"
    watchdog = File.read(pid_file).to_i
    assert_includes @deployment.pids, watchdog, "the Sampler measures the watchdog's tree (core and app processes)"
    @deployment.stop
    @deployment = nil
    wait_until(timeout_s: 10, message: "passenger's watchdog (pid #{watchdog}) gone") do
      !Rackbench::ProcessTable.live?(watchdog)
    end
  end

  # Apache with mod_passenger on its default MPM serves under load in
  # apache_passenger_test.rb; here on the worker MPM.
  def test_apache_with_mod_passenger_serves_hello_under_load_and_keeps_its_generated_config_and_logs_in_the_run_folder
    assert_serves_hello({ "server" => "apache_passenger", "workers" => 2, "mpm" => "worker" })
    config = File.read(File.join(tmpdir, "apache2.conf"))
    assert_includes config, "mod_mpm_worker.so"
    assert_includes config, "PassengerMaxPoolSize 2"
    assert File.exist?(File.join(tmpdir, "apache2.pid"))
    assert_includes @deployment.commands.first, "-DFOREGROUND"
  end
end
