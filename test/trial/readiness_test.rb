# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  # Readiness: one HTTP request read against a deadline, and the wait for a
  # server's first answer, against real loopback listeners and processes.
  class ReadinessTest < Minitest::Test
    def teardown
      @listener&.close
      @thread&.kill&.join
      (@open || []).each(&:close)
      @supervisor&.stop_all
      super
    end

    # A listener on a loopback port answering each connection with response;
    # close: false keeps the connection open after it, as keep-alive does.
    def serve(response, close: true)
      @listener = TCPServer.new("127.0.0.1", 0)
      @thread = Thread.new do
        loop do
          client = @listener.accept
          client.readpartial(4096)
          client.write(response)
          close ? client.close : (@open ||= []) << client
        end
      rescue IOError, SystemCallError
        nil
      end
      Target.tcp(@listener.addr[1], "/hello")
    end

    def free_port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }

    def test_an_answer_is_its_status_its_headers_by_lowercase_name_and_its_body
      status, headers, body = Readiness.parse("HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nX-A: b\r\n\r\nmade")
      assert_equal [201, "text/plain", "b", "made"], [status, headers["content-type"], headers["x-a"], body]
    end

    def test_a_chunked_body_is_joined
      raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
      assert_equal "hello world", Readiness.parse(raw).last
    end

    def test_bytes_that_are_not_http_are_an_io_error
      error = assert_raises(IOError) { Readiness.parse("SSH-2.0-OpenSSH\r\n") }
      assert_match(/no HTTP response/, error.message)
    end

    def test_get_reads_until_the_server_closes
      target = serve("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello world")
      assert_equal [200, "hello world"], Readiness.get(target).values_at(0, 2)
    end

    def test_a_keepalive_get_stops_at_the_content_length_of_a_connection_kept_open
      target = serve("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", close: false)
      assert_equal [200, "hello"], Readiness.get(target, keepalive: true, timeout_s: 30).values_at(0, 2)
    end

    def test_wait_returns_the_first_answer_of_a_ready_server
      target = serve("HTTP/1.1 503 Service Unavailable\r\n\r\nbooting")
      assert_equal 503, Readiness.wait(target, timeout_s: 5).first, "any HTTP status means it is up"
    end

    def test_wait_gives_up_at_its_deadline_naming_the_target_and_the_last_error
      target = Target.tcp(free_port, "/hello")
      error = assert_raises(ServiceError) { Readiness.wait(target, timeout_s: 0.3) }
      assert_match(/not ready after 0.3s/, error.message)
      assert_includes error.message, target.to_s
    end

    def test_wait_stops_early_when_the_process_exits_with_its_log
      @supervisor = Supervisor.new
      argv = [RbConfig.ruby, "-e", "warn 'cannot load the app'; exit 3"]
      child = @supervisor.spawn(argv, name: "server", log_path: File.join(tmpdir, "server.log"))
      error = assert_raises(ServiceError) { Readiness.wait(Target.tcp(free_port, "/"), child: child, timeout_s: 30) }
      assert_includes error.log_tail, "cannot load the app"
      refute_match(/not ready after/, error.message, "it did not wait for the deadline")
    end
  end
end
