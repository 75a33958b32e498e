# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  # The drain's wait for neighbours: real processes, one spinning, one asleep.
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
      def sampler = Struct.new(:cpu) { def cpu_reading = [Process.clock_gettime(Process::CLOCK_MONOTONIC), 0.0] }.new(0)
      def target(path) = target_of.call(path)
      def children = []
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

    # The spinner gets a high priority (root may), so a busy machine cannot starve it into looking idle.
    def start(code, nice: 0)
      @supervisor.spawn(["nice", "-n", nice.to_s, RbConfig.ruby, "-e", code], name: "neighbour", log_path: nil).pid
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
