# frozen_string_literal: true

require "test_helper"
require "socket"
require "rackbench/targets/services/upstream/server"

module Rackbench
  # The upstream stub in this process: pages of exact sizes, answers in the
  # order they fall due (not the order asked), keep-alive and close
  # (test/targets/services/upstream_test.rb starts it as the service does).
  class UpstreamServerTest < Minitest::Test
    def setup
      @listener = TCPServer.new("127.0.0.1", 0)
      @server = RackbenchUpstream::Server.new(@listener, delay_ms: 0, body_bytes: 300)
      @thread = Thread.new { @server.run }
    end

    def teardown
      @server.stop
      @thread.join(5)
      @listener.close
    end

    def get(socket, query, close: false)
      socket.write("GET /?#{query} HTTP/1.1\r\nHost: x\r\n#{"Connection: close\r\n" if close}\r\n")
    end

    def read_response(socket)
      head = +""
      head << socket.readpartial(1) until head.end_with?("\r\n\r\n")
      length = head[/content-length: (\d+)/i, 1].to_i
      [head, socket.read(length)]
    end

    def test_a_page_is_exactly_the_size_asked_and_lists_items_when_it_can
      [0, 10, 120, 16_384].each { |bytes| assert_equal bytes, RackbenchUpstream::Page.build(bytes).bytesize }
      assert_match "<li>upstream item 1</li>", RackbenchUpstream::Page.build(1000)
    end

    def test_answers_come_when_due_on_one_keep_alive_connection
      socket = TCPSocket.new("127.0.0.1", @listener.addr[1])
      get(socket, "delay_ms=0&body_bytes=64")
      head, body = read_response(socket)
      assert_match(%r{\AHTTP/1\.1 200}, head)
      assert_equal 64, body.bytesize
      get(socket, "body_bytes=500", close: true)
      _, second = read_response(socket)
      assert_equal 500, second.bytesize, "the connection stayed open for a second request"
      assert_nil socket.read(1), "closed after the answer that asked for it"
    ensure
      socket&.close
    end

    def test_a_short_delay_is_answered_before_a_long_one_asked_earlier
      slow = TCPSocket.new("127.0.0.1", @listener.addr[1])
      fast = TCPSocket.new("127.0.0.1", @listener.addr[1])
      get(slow, "delay_ms=2000&body_bytes=10")
      get(fast, "delay_ms=0&body_bytes=20")
      ready, = IO.select([slow, fast], nil, nil, 5)
      assert_equal [fast], ready, "the event loop holds the slow call without blocking the fast one"
      assert_equal 10, read_response(slow).last.bytesize
    ensure
      [slow, fast].compact.each(&:close)
    end
  end
end
