# frozen_string_literal: true

require "test_helper"

# Each proxy in front of two real puma backends, once per balancing strategy.
# The backends count the /hello requests they served (counting.ru), so where
# the requests went is measured by the backends themselves, not the proxy.
class ProxyBalancingTest < Minitest::Test
  COUNTING_APP = File.expand_path("counting.ru", __dir__)
  REQUESTS = 30

  # What 30 sequential requests for one URL must do: reach :every backend, or
  # stay on :one (a hash of the URL or the client, or "fill the first").
  SPREAD = {
    "nginx" => { "round-robin" => :every, "least-conn" => :every, "hash" => :one, "ip-hash" => :one, "random" => nil },
    "lighttpd" => { "round-robin" => :every, "hash" => :one, "fair" => :one, "sticky" => :one },
    "haproxy" => { "roundrobin" => :every, "leastconn" => :every, "uri-hash" => :one, "first" => :one }
  }.freeze

  def teardown
    @deployment&.stop
    @backends&.each(&:stop)
    @supervisor&.stop_all
    assert_nothing_left
    super
  end

  def test_every_strategy_of_every_proxy_is_covered_here
    Rackbench::Proxies.all.reject { |klass| klass.balances.empty? }.each do |klass|
      assert_equal klass.balances.sort, SPREAD.fetch(klass.proxy_name).keys.sort, "strategies of #{klass.proxy_name}"
    end
  end

  # One pair of backends a proxy, each strategy's proxy started in turn in
  # front of it (what a Deployment does, by the proxy contract of
  # Proxies::Base); the requests each strategy sent are the counts' growth.
  SPREAD.each do |proxy, strategies|
    define_method("test_#{proxy}_sends_one_url_to_the_backends_each_strategy_says") do
      start_backends
      strategies.each do |balance, expected|
        counts = counts_after_requests(proxy, balance)
        assert_equal REQUESTS, counts.sum, "#{proxy} #{balance}: every request answered by exactly one backend: #{counts}"
        case expected
        when :every then assert counts.all?(&:positive?), "#{proxy} #{balance} reached every backend: #{counts}"
        when :one then assert_equal 1, counts.count(&:positive?), "#{proxy} #{balance} kept one URL on one backend: #{counts}"
        end
      end
    end
  end

  %w[lighttpd haproxy].each do |proxy|
    define_method("test_#{proxy}_in_front_of_unix_socket_backends_serves_a_short_load_without_errors") do
      assert_unix_backends_serve_a_short_load(proxy)
    end
  end

  def test_nginx_in_front_of_unix_socket_backends_serves_a_short_load_and_keeps_its_config_pid_and_logs_in_the_deployment_folder
    assert_unix_backends_serve_a_short_load("nginx", workers: 3)
    config = File.read(File.join(tmpdir, "nginx.conf"))
    assert_includes config, "worker_processes 3;"
    assert File.exist?(File.join(tmpdir, "nginx.pid")), "pid file in the run folder"
    assert_equal 1 + 3, Rackbench::Sampler.new(root_pids: [@deployment.children.last.pid]).take.processes,
                 "nginx master and 3 workers are sampled"
  end

  def test_an_unknown_balance_is_one_clear_config_error
    error = assert_raises(Rackbench::ConfigError) { Rackbench::Proxies.fetch("lighttpd").new("proxy" => "lighttpd", "balance" => "random").validate! }
    assert_match(/"balance" must be one of fair, round-robin, hash, sticky, got "random"/, error.message)
  end

  private

  def assert_unix_backends_serve_a_short_load(proxy, **knobs)
    deploy(proxy, SPREAD[proxy].keys.find { |b| SPREAD[proxy][b] == :every }, bind: "unix", **knobs)
    result = short_load(@deployment.target("/hello"))
    assert_equal 200, result.requests
    assert_equal 0, result.error_count, result.errors.inspect
    counts = counts_of(@deployment.backends)
    assert counts.all?(&:positive?), "load reached both unix-socket backends: #{counts}"
  end

  def deploy(proxy, balance, bind: nil, **knobs)
    @supervisor = Rackbench::Supervisor.new
    config = { "server" => "puma", "threads" => 2, "instances" => 2,
               "proxy" => { "proxy" => proxy, "balance" => balance }.merge(knobs.transform_keys(&:to_s)) }
    config["bind"] = bind if bind
    server = Rackbench::Servers.fetch("puma").new(config).validate!
    @deployment = Rackbench::Deployment.new(server, supervisor: @supervisor, dir: tmpdir, app: COUNTING_APP).start
  end

  # Two pumas of two threads on loopback TCP, each a deployment of its own.
  def start_backends
    @supervisor = Rackbench::Supervisor.new
    server = Rackbench::Servers.fetch("puma").new("server" => "puma", "threads" => 2).validate!
    @backends = (1..2).map do |i|
      dir = FileUtils.mkdir_p(File.join(tmpdir, "backend-#{i}")).first
      Rackbench::Deployment.new(server, supervisor: @supervisor, dir: dir, app: COUNTING_APP).start
    end
  end

  # The requests each backend served of REQUESTS sent through the proxy with this balance.
  def counts_after_requests(proxy, balance)
    binds = @backends.map(&:bind)
    before = counts_of(binds)
    with_proxy(proxy, balance, binds) do |bind|
      REQUESTS.times do
        status, = Rackbench::Readiness.get(bind.target("/hello"))
        assert_equal 200, status, "#{proxy} #{balance}"
      end
    end
    counts_of(binds).zip(before).map { |after, was| after - was }
  end

  # The proxy started in front of the binds (its config in a folder of its
  # own), ready, yielded its bind, then stopped.
  def with_proxy(proxy, balance, binds)
    adapter = Rackbench::Proxies.fetch(proxy).new("proxy" => proxy, "balance" => balance).validate!
    dir = FileUtils.mkdir_p(File.join(tmpdir, "#{proxy}-#{balance}")).first
    bind = adapter.bind(dir)
    argv = adapter.command(bind: bind, backends: binds, dir: dir)
    child = @supervisor.spawn(argv, name: "proxy #{adapter.label}", log_path: File.join(dir, "proxy.log"), chdir: dir)
    Rackbench::Readiness.wait(bind.target, child: child, timeout_s: 30)
    yield bind
  ensure
    @supervisor.stop(child, signal: adapter.stop_signal) if child
  end

  def counts_of(binds)
    binds.map { |b| Rackbench::Readiness.get(b.target("/count"))[2].split.last.to_i }
  end

  def short_load(target)
    # A count, not a duration: a slow machine takes longer, never fewer.
    load = Rackbench::Engines::Load.new(target: target, concurrency: 8, threads: 2, requests: 200, timeout_s: 30)
    dir = File.join(tmpdir, "load").tap { |d| FileUtils.mkdir_p(d) }
    Rackbench::Engines.fetch("native").new.run(load, supervisor: @supervisor, dir: dir)
  end
end
