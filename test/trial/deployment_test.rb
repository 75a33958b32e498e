# frozen_string_literal: true

require "test_helper"
require "socket"
require "minitest/mock"

module Rackbench
  # A Deployment on real servers: one process, or instances behind a proxy,
  # started at once, ready when each answers HTTP, sampled and stopped as
  # one tree; a start that fails stops what it started.
  class DeploymentTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @deployment&.stop
      @supervisor.stop_all
      assert_nothing_left
      super
    end

    def deploy(config, app: Apps.path("rack"), **options)
      server = Servers.fetch(config["server"]).new(config).validate!
      @deployment = Deployment.new(server, supervisor: @supervisor, dir: tmpdir, app: app, env: Apps.default_env(tmpdir),
                                           ready_timeout_s: 60, **options).start
    end

    def test_one_process_is_ready_when_it_answers_and_is_stopped_as_a_tree
      deploy({ "server" => "puma", "threads" => 2 })
      status, _headers, body = Readiness.get(@deployment.target("/hello"))
      assert_equal [200, "hello world"], [status, body]
      assert_equal 1, @deployment.children.size
      assert @deployment.alive?
      assert_includes @deployment.pids, @deployment.children.first.pid
      assert_equal Servers.fetch("puma").version, @deployment.server_version
      @deployment.stop
      assert_empty @deployment.children
    end

    # Another process takes the port rackbench chose before the server binds
    # it (here, on purpose: the port chooser hands out a port held open): the
    # start is tried again on a fresh port.
    def test_a_port_taken_between_choosing_and_binding_is_chosen_again
      start_on_a_taken_port_first("webrick")
    end

    # Thin (EventMachine) says so in words of its own: "no acceptor (port is
    # in use or requires root privileges)".
    def test_a_port_taken_before_thin_binds_it_is_chosen_again
      start_on_a_taken_port_first("thin")
    end

    # The process that took the port answers HTTP itself (in a whole-suite run,
    # another test's server serving the same app): its answer is not the
    # server's readiness, and the start is tried again on a fresh port rather
    # than the load going to it while the server dies of "Address already in use".
    def test_a_taken_port_whose_holder_answers_is_chosen_again
      holder = answering_holder
      start_on_a_taken_port_first("webrick", taken: holder.server)
      # At least once: on a loaded machine a check may time out before the holder's answer and ask again.
      refute_empty holder.answers, "the holder answered the first readiness check"
      assert_equal 1, @deployment.children.size
      assert_includes Procfs.listening_pids(@deployment.target("/hello").port), @deployment.children.first.pid
    ensure
      holder&.close
    end

    def test_a_port_the_suite_names_answered_by_another_process_is_an_error_naming_that_process
      holder = answering_holder
      error = assert_raises(ServiceError) { deploy({ "server" => "webrick", "port" => holder.server.addr[1] }) }
      assert_match(/port #{holder.server.addr[1]} is held by another process \(pid #{Process.pid}, /, error.message)
    ensure
      holder&.close
    end

    # A TCP listener in this process that answers every request "hello world",
    # as the rack app would; answers lists the requests it answered.
    Holder = Struct.new(:server, :thread, :answers) do
      def close
        thread.kill.join
        server.close
      end
    end

    def answering_holder
      server = TCPServer.new("127.0.0.1", 0)
      answers = Queue.new
      thread = Thread.new do
        loop do
          client = server.accept
          answers << client.readpartial(4096)
          client.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n" \
                       "Connection: close\r\n\r\nhello world")
          client.close
        end
      end
      Holder.new(server, thread, answers)
    end

    def start_on_a_taken_port_first(server, taken: nil)
      held = taken || TCPServer.new("127.0.0.1", 0)
      handed = [held.addr[1]]
      chooser = Servers::Base.method(:free_port)
      Servers::Base.stub(:free_port, -> { handed.shift || chooser.call }) { deploy({ "server" => server }) }
      refute_equal held.addr[1], @deployment.target("/hello").port, "the second start chose another port"
      status, = Readiness.get(@deployment.target("/hello"))
      assert_equal 200, status
    ensure
      held&.close unless taken
    end

    def test_a_port_the_suite_names_is_not_chosen_again_when_taken
      taken = TCPServer.new("127.0.0.1", 0)
      error = assert_raises(ServiceError) { deploy({ "server" => "webrick", "port" => taken.addr[1] }) }
      assert_match(/Address already in use|EADDRINUSE|never/, error.message)
    ensure
      taken&.close
    end

    def test_instances_behind_a_proxy_each_get_a_bind_and_the_load_goes_to_the_proxy
      why = Proxies.fetch("nginx").unavailable_reason
      skip "nginx cannot run here: #{why}" if why

      deploy({ "server" => "puma", "threads" => 1, "instances" => 2, "proxy" => { "proxy" => "nginx" } })
      assert_equal 2, @deployment.backends.size
      refute_equal @deployment.backends.first.target, @deployment.backends.last.target
      assert_equal(%w[puma puma proxy], @deployment.children.map { |c| c.name.split.first })
      refute_includes @deployment.backends.map(&:target), @deployment.bind.target, "load goes to the proxy"
      status, = Readiness.get(@deployment.target("/hello"))
      assert_equal 200, status
    end

    # A server that takes 2 s to stop (it says when it was told and when it
    # is done, by the machine's monotonic clock): its instances are told at
    # once, each before any of them is done, not one after another.
    SLOW_STOP = <<~RUBY
      require "socket"
      port, log = ARGV
      now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
      Signal.trap("TERM") do
        File.write(log, "term \#{now.call}\n", mode: "a")
        sleep 2
        File.write(log, "done \#{now.call}\n", mode: "a")
        exit!(0)
      end
      server = TCPServer.new("127.0.0.1", Integer(port))
      loop do
        client = server.accept
        client.readpartial(4096)
        client.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
        client.close
      end
    RUBY

    def test_instances_are_stopped_side_by_side
      why = Proxies.fetch("nginx").unavailable_reason
      skip "nginx cannot run here: #{why}" if why

      script = File.join(tmpdir, "slow_stop.rb").tap { |p| File.write(p, SLOW_STOP) }
      deploy({ "server" => "command", "instances" => 3, "command" => [RbConfig.ruby, script, "{port}", "{dir}/stops.log"],
               "proxy" => { "proxy" => "nginx" } })
      @deployment.stop
      stops = Dir[File.join(tmpdir, "instance-*", "stops.log")].map { |f| File.read(f).split.each_slice(2).to_h }
      assert_equal 3, stops.size, "each instance was told to stop"
      told = stops.map { |s| Float(s.fetch("term")) }
      done = stops.map { |s| Float(s.fetch("done")) }
      assert_operator told.max, :<, done.min, "every instance was told before the first was done: #{stops}"
    end

    def test_a_server_that_exits_before_it_is_ready_is_a_service_error_and_leaves_nothing
      broken = File.join(tmpdir, "broken.ru").tap { |p| File.write(p, "raise 'no app today'\n") }
      error = assert_raises(ServiceError) { deploy({ "server" => "puma" }, app: broken) }
      assert_includes error.log_tail.to_s, "no app today", "the server's own words come with it"
    end
  end
end
