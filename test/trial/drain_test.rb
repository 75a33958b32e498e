# frozen_string_literal: true

require "test_helper"
require "socket"
require "tmpdir"

module Rackbench
  # The drain: its probe behind a queue, its wait for neighbours (real
  # processes, one spinning, one asleep), and a real server that spins while
  # idle, with and without a leftover request inside.
  class DrainTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @supervisor.stop_all
      @listener&.close
      @thread&.kill&.join
      (@held || []).each(&:close)
      super
    end

    # An idle server (its CPU reads 0) whose deployment answers the first
    # request and then none: later requests wait, as behind a queue of sleeps.
    Deployment = Struct.new(:target_of) do
      def sampler = IdleSampler.new
      def target(path) = target_of.call(path)
      def children = []
    end

    # Reads 0 CPU seconds and no connections it can see.
    class IdleSampler
      def cpu_reading = [Process.clock_gettime(Process::CLOCK_MONOTONIC), 0.0]
      def tree_reading = cpu_reading + [1, 0]
      def held_connections = nil
    end

    def answering_once
      @listener = TCPServer.new("127.0.0.1", 0)
      @thread = Thread.new do
        first = @listener.accept
        first.readpartial(4096)
        first.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        first.close
        loop { (@held ||= []) << @listener.accept } # accepted, never answered
      rescue IOError, SystemCallError
        nil
      end
      Deployment.new(->(path) { Target.tcp(@listener.addr[1], path) })
    end

    def test_a_probe_that_gets_no_answer_before_the_deadline_says_the_server_did_not_drain
      drain = Drain.new(answering_once, path: "/hello", timeout_s: 1).calibrate
      error = assert_raises(ServiceError) { drain.wait }
      assert_match(%r{\Athe server did not drain within 1 s: its CPU was 0 % busy and /hello got no answer}, error.message)
      refute_match(/no HTTP response/, error.message)
    end

    # A real server process on a Unix socket: it answers /hello at once, and
    # a child of it spins all along (a JVM's compiler, a hundred workers
    # woken by each probe); a request to /hold is kept unanswered, its
    # connection open (a leftover request, computing).
    BOOTING_WORKERS = 15

    SPINNING_SERVER = <<~RUBY
      require "socket"
      server = UNIXServer.new(ARGV[0])
      fork { loop {} }
      held = []
      loop do
        client = server.accept
        request = client.readpartial(4096)
        next held << client if request.start_with?("GET /hold")

        client.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        client.close
      end
    RUBY

    # A real server that, once it has answered its first request, starts a
    # worker every 0.3 s, as Unicorn starts its workers after the first is
    # up (a hundred took 60 s at load 35); between two forks it reads idle.
    BOOTING_SERVER = <<~RUBY.freeze
      require "socket"
      server = UNIXServer.new(ARGV[0])
      booting = nil
      loop do
        client = server.accept
        client.readpartial(4096)
        client.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        client.close
        booting ||= Thread.new do
          #{BOOTING_WORKERS}.times do
            Process.detach(spawn("sleep", "120"))
            sleep 0.3
          end
        end
      end
    RUBY

    # A deployment of the spinning server: a real process tree, read by a real Sampler.
    Spinning = Struct.new(:pid, :socket_path) do
      def sampler = Sampler.new(root_pids: [pid])
      def target(path) = Target.unix(socket_path, path)
      def children = []
    end

    def spinning_server(dir, code = SPINNING_SERVER)
      path = File.join(dir, "server.sock")
      pid = start(code, nice: Process.uid.zero? ? -10 : 0, args: [path])
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
      sleep 0.05 until File.socket?(path) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      Spinning.new(pid, path)
    end

    def test_a_server_whose_cpu_stays_busy_with_no_request_inside_is_drained_as_idle_with_background_work
      Dir.mktmpdir do |dir|
        drain = Drain.new(spinning_server(dir), path: "/hello", timeout_s: 30).calibrate
        waited_s = drain.wait
        assert_operator drain.background_share, :>, Drain::IDLE_CPU_SHARE, "its CPU never read as idle"
        assert_operator waited_s, :>=, SteadyBackground::STEADY_S, "steady over the last seconds, not a moment"
      end
    end

    def test_the_same_server_still_holding_a_leftover_request_is_waited_for
      Dir.mktmpdir do |dir|
        server = spinning_server(dir)
        drain = Drain.new(server, path: "/hello", timeout_s: 6).calibrate
        leftover = UNIXSocket.new(server.socket_path)
        leftover.write("GET /hold HTTP/1.1\r\nHost: localhost\r\n\r\n")
        leftover.close # its client gone, the server still on it
        error = assert_raises(ServiceError) { drain.wait }
        assert_match(/did not drain within 6 s: .* it held 1 connection \(idle: 0\)\z/, error.message)
      end
    end

    def test_a_server_still_starting_workers_is_waited_for_past_the_timeout_until_they_are_up
      Dir.mktmpdir do |dir|
        server = spinning_server(dir, BOOTING_SERVER)
        drain = Drain.new(server, path: "/hello", timeout_s: 3).calibrate
        waited_s = drain.wait
        assert_equal BOOTING_WORKERS + 1, server.sampler.tree_pids.size, "every worker started (waited #{waited_s} s)"
        assert_operator waited_s, :>, 3, "past the timeout: each new worker moved the deadline"
      end
    end

    # The spinner gets a high priority (root may), so a busy machine cannot starve it into looking idle.
    def start(code, nice: 0, args: [])
      @supervisor.spawn(["nice", "-n", nice.to_s, RbConfig.ruby, "-e", code, *args], name: "neighbour", log_path: nil).pid
    end

    def drain = Drain.new(nil, path: "/hello", timeout_s: 1)

    def test_an_idle_neighbour_is_not_waited_for
      sleeper = start("sleep 60")
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      assert_nil drain.wait_for_neighbours([sleeper])
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, Drain::NEIGHBOUR_WAIT_S
    end

    def test_a_neighbour_that_keeps_spinning_is_reported_with_its_cpu_share_after_the_wait
      spinner = start("loop { }", nice: Process.uid.zero? ? -10 : 0)
      share = drain.wait_for_neighbours([spinner])
      assert share, "a spinning neighbour is busy"
      assert_operator share, :>, Drain::IDLE_CPU_SHARE
    end

    def test_no_neighbours_no_wait
      assert_nil drain.wait_for_neighbours([])
    end
  end
end
