# frozen_string_literal: true

require "test_helper"

# Knobs reach the command line (or generated config) they name, and a wrong
# knob is one clear ConfigError, before anything starts.
class ServerConfigTest < Minitest::Test
  Bind = Rackbench::Servers::Base::Bind

  def server(config) = Rackbench::Servers.fetch(config["server"]).new(config).validate!
  def argv(config, bind: Bind.new(port: 9000)) = server(config).command(app: "/srv/app/config.ru", bind: bind, dir: tmpdir)

  def test_the_command_template_fills_every_placeholder
    template = "srv --port {port} --app {app} --in {app_dir} -w {workers} -t {threads} --log {dir}/x"
    words = argv({ "server" => "command", "command" => template, "workers" => 3, "threads" => 7 })
    expected = %w[srv --port 9000 --app /srv/app/config.ru --in /srv/app -w 3 -t 7 --log] + ["#{tmpdir}/x"]
    assert_equal expected, words
  end

  def test_the_command_adapter_waits_on_its_readiness_url
    command = server({ "server" => "command", "command" => "srv {port}", "ready_url" => "http://127.0.0.1:{port}/health" })
    assert_equal "/health", command.bind(tmpdir).target.path
  end

  def test_the_command_template_must_say_where_to_listen
    error = assert_raises(Rackbench::ConfigError) { server({ "server" => "command", "bind" => "unix", "command" => "srv --port {port}" }) }
    assert_match(/must contain \{socket\}/, error.message)
    error = assert_raises(Rackbench::ConfigError) { server({ "server" => "command", "command" => "srv {port} {nope}" }) }
    assert_match(/unknown placeholder \{nope\}/, error.message)
  end

  def test_puma_fork_worker_needs_cluster_mode
    assert_includes argv({ "server" => "puma", "workers" => 2, "fork_worker" => true }), "--fork-worker"
    error = assert_raises(Rackbench::ConfigError) { server({ "server" => "puma", "fork_worker" => true }) }
    assert_match(/fork_worker needs workers > 0/, error.message)
  end

  def test_passenger_pool_knobs_reach_passenger_start
    words = argv({ "server" => "passenger", "max_pool_size" => 8, "min_instances" => 2, "spawn_method" => "direct" })
    assert_equal %w[8 2 direct], [words[words.index("--max-pool-size") + 1], words[words.index("--min-instances") + 1],
                                  words[words.index("--spawn-method") + 1]]
    assert_includes words, "builtin"
  end

  def test_falcon_models_map_to_its_flags
    assert_equal %w[--hybrid --forks 2 --threads 4],
                 argv({ "server" => "falcon", "model" => "hybrid", "workers" => 2, "threads" => 4 }).last(5)
    assert_raises(Rackbench::ConfigError) { server({ "server" => "falcon", "model" => "fibers" }) }
  end

  def test_trinidad_writes_its_runtimes_and_threads_into_the_run_folder
    words = argv({ "server" => "trinidad", "runtimes" => 1, "threads" => 8 })
    config = File.read(File.join(tmpdir, "trinidad.yml"))
    assert_equal [["jruby_min_runtimes: 1", "jruby_max_runtimes: 1", "maxThreads: 8"], File.join(tmpdir, "trinidad.yml")],
                 [config.scan(/jruby_m(?:in|ax)_runtimes: \d+|maxThreads: \d+/), words[words.index("--config") + 1]]
  end

  def test_unicorn_and_pitchfork_write_their_config_into_the_run_folder
    argv({ "server" => "unicorn", "workers" => 4, "preload" => true })
    assert_includes File.read(File.join(tmpdir, "unicorn.rb")), "preload_app true"
    argv({ "server" => "pitchfork", "workers" => 3, "refork_after" => [50, 100] })
    config = File.read(File.join(tmpdir, "pitchfork.rb"))
    assert_includes config, "worker_processes 3"
    assert_includes config, "refork_after [50, 100]"
  end

  def test_servers_without_unix_sockets_refuse_bind_unix
    %w[webrick falcon mongrel apache_passenger puma_jruby trinidad].each do |name|
      assert_raises(Rackbench::ConfigError, name) { server({ "server" => name, "bind" => "unix" }) }
    end
  end

  def test_nginx_proxies_to_unix_socket_backends_with_its_workers
    nginx = Rackbench::Proxies.fetch("nginx").new("proxy" => "nginx", "workers" => 6, "balance" => "hash").validate!
    backends = [Bind.new(socket_path: "/r/thin.0.sock"), Bind.new(socket_path: "/r/thin.1.sock")]
    nginx.command(bind: Bind.new(port: 9100), backends: backends, dir: tmpdir)
    config = File.read(File.join(tmpdir, "nginx.conf"))
    assert_includes config, "worker_processes 6;"
    assert_includes config, "server unix:/r/thin.1.sock;"
    assert_includes config, "hash $request_uri consistent;"
    assert_equal "nginx x6 (hash)", nginx.label
  end
end
