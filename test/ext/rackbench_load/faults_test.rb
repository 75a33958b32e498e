# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # Misbehaving servers (a small TCPServer in this process) are counted under
  # the right error kind, never crash the engine, and never keep it running
  # past --duration plus --timeout.
  class NativeFaultsTest < Minitest::Test
    include EngineHelpers

    OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    # Serves every connection with the block (given the socket) in a thread.
    def misbehaving_server(&handler)
      @server = TCPServer.new("127.0.0.1", 0)
      @server_thread = Thread.new do
        loop do
          client = @server.accept
          Thread.new(client) do |c|
            handler.call(c)
          rescue IOError, SystemCallError
            nil
          ensure
            c.close unless c.closed?
          end
        end
      rescue IOError, SystemCallError
        nil
      end
      "http://127.0.0.1:#{@server.addr[1]}/"
    end

    def teardown
      @server&.close
      @server_thread&.join(2)
      super
    end

    def read_request(sock)
      head = +""
      head << sock.readpartial(4096) until head.include?("\r\n\r\n")
      head
    end

    def test_a_server_closing_mid_response_counts_read_errors
      url = misbehaving_server do |c|
        read_request(c)
        c.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\ntruncated")
      end
      r = load_json(url, "-c", 2, "-d", "1s")
      assert_equal 0, r["requests"]
      assert_operator r["errors"]["read"], :>, 10
      assert_equal 0, r["errors"]["malformed"] + r["errors"]["timeout"]
    end

    def test_garbage_counts_malformed_responses
      url = misbehaving_server do |c|
        loop do
          read_request(c)
          c.write("SSH-2.0-OpenSSH_9.2\r\n\r\n")
        end
      end
      r = load_json(url, "-c", 2, "-d", "1s")
      assert_equal 0, r["requests"]
      assert_operator r["errors"]["malformed"], :>, 10
    end

    def test_a_body_longer_than_its_content_length_is_only_a_malformed_response
      url = misbehaving_server do |c|
        read_request(c)
        c.write("#{OK}EXTRA BYTES")
        c.read
      end
      r = load_json(url, "-c", 1, "-d", "1s")
      assert_operator r["errors"]["malformed"], :>, 0
      assert_equal 0, r["requests"], "not also a success"
      assert_equal({}, r["status_counts"])
      assert_equal [], r["histogram"]
    end

    def test_n_without_d_ends_when_the_server_stalls
      url = misbehaving_server do |c|
        read_request(c)
        c.read # never answers
      end
      r = load_json(url, "-c", 2, "-n", 100, "--timeout", "200ms", "--stall-timeout", "1s")
      assert r["stalled"]
      assert_equal 0, r["requests"]
      assert_operator r["errors"]["timeout"], :>=, 2
      assert(r["warnings"].any? { |w| w.start_with?("stalled: no response for 1s") }, r["warnings"].inspect)
      refute(r["warnings"].any? { |w| w.start_with?("interrupted") })
    end

    # 1000 requests are due in the second; two connections held by a server
    # that never answers send a handful (one per timeout each).
    def test_open_loop_requests_due_but_never_sent_are_counted
      url = misbehaving_server do |c|
        read_request(c)
        c.read
      end
      r = load_json(url, "-c", 2, "-d", "1s", "--rate", 1000, "--timeout", "300ms")
      sent = r["errors"]["timeout"] + 2 # timed out, and the two in flight at the end
      assert_operator r["unsent"], :>=, 1000 - (10 * sent), "due 1000, sent about #{sent}"
      assert_operator r["unsent"], :<=, 1000, "never more than the schedule holds"
      assert(r["warnings"].any? { |w| w.start_with?("#{r["unsent"]} requests due in the counted window were never sent") })
    end

    def test_a_stalled_server_hits_the_timeout_and_the_run_ends_on_time
      url = misbehaving_server do |c|
        read_request(c)
        c.read # never answers; holds the connection until the client gives up
      end
      r = load_json(url, "-c", 3, "-d", "1s", "--timeout", "300ms")
      assert_equal 0, r["requests"]
      assert_operator r["errors"]["timeout"], :>=, 3, "each connection timed out at least once"
      window = r["window_requests"]
      assert_equal window["censored"], r["latency_censored"]
      assert_operator window["timeout"], :>=, r["errors"]["timeout"], "the window's requests also time out in its grace"
      assert_equal window["total"], window["timeout"] + window["in_flight"], "none answered: each timed out or still waits"
      assert(r["warnings"].any? { |w| w.include?("censored") })
      # A safety net ten times the 1 s run, not a measure: waiting on the server would never end.
      assert_operator r["elapsed_s"], :<, 10, "the run ended without the server's help"
    end

    def test_a_clean_close_after_a_complete_response_is_a_reconnect
      url = misbehaving_server do |c|
        read_request(c)
        c.write(OK) # keep-alive implied, then closed anyway
      end
      r = load_json(url, "-c", 2, "-n", 300, "-d", "5s")
      assert_equal 300, r["requests"]
      assert_equal 0, errors_total(r)
      assert_operator r["reconnects"], :>=, 298
    end

    def test_connection_close_responses_reconnect_every_time_like_unicorn
      url = misbehaving_server do |c|
        read_request(c)
        c.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
      end
      r = load_json(url, "-c", 2, "-n", 300, "-d", "5s")
      assert_equal 300, r["requests"]
      assert_equal 0, errors_total(r)
      assert_operator r["reconnects"], :>=, 298
    end

    def test_a_server_that_goes_away_counts_connect_errors_without_spinning
      url = misbehaving_server do |c|
        read_request(c)
        c.write(OK)
        @server.close
      end
      r = load_json(url, "-c", 2, "-d", "1s")
      assert_operator r["errors"]["connect"], :>, 0
      assert_operator r["errors"]["connect"], :<, 2 * 150, "reconnects are paced"
      cpu_s = r["client_cpu"]["user_s"] + r["client_cpu"]["sys_s"]
      assert_operator cpu_s, :<, r["elapsed_s"] / 2, "a client spinning on refused connects would use all its time"
    end
  end
end
