# frozen_string_literal: true

require "test_helper"
require "socket"

module Rackbench
  # wrk's adapter: the command it builds, what it refuses, and its JSON line
  # read into one Result, a server's clean closes counted as reconnects.
  class WrkTest < Minitest::Test
    LINE = 'RACKBENCH_JSON {"requests":400,"duration_us":2000000,"bytes":6000,' \
           '"errors":{"connect":0,"read":400,"write":0,"status":0,"timeout":0},' \
           '"latency":{"mean":1500.5,"stdev":10.0,"min":100,"max":9000,"50":1400,"75":1600,"90":2000,"99":5000,"99.9":8000}}'

    # A loopback server that answers every request, then closes (as unicorn does); yields its target.
    def closing_server
      server = TCPServer.new("127.0.0.1", 0)
      thread = Thread.new do
        loop do
          client = server.accept
          client.readpartial(4096)
          client.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
          client.close
        end
      rescue IOError
        nil
      end
      yield Target.tcp(server.addr[1], "/")
    ensure
      server&.close
      thread&.join(5)
    end

    def load(target, **given) = Engines::Load.new(target: target, concurrency: 8, duration_s: 2, **given)

    def test_a_server_that_closes_every_connection_has_its_read_errors_counted_as_reconnects
      wrk = Engines.fetch("wrk").new
      closing_server do |target|
        argv = wrk.command(load(target), tmpdir)
        assert_equal ["--connections", "8", "--duration", "2s"], argv[3, 4]
        assert_equal target.url, argv.last
        assert File.exist?(File.join(tmpdir, "wrk-json.lua"))
      end
      result = wrk.parse("Running 2s test\n#{LINE}\n", nil, ["wrk"])
      assert_equal [400, 0, 200.0], [result.reconnects, result.errors["read"], result.requests_per_s]
      assert_match "400 of wrk's read errors were clean closes", result.warnings.first
    end

    def test_it_refuses_a_request_count_and_a_rate
      wrk = Engines.fetch("wrk").new
      error = assert_raises(ConfigError) { wrk.validate!(load(Target.tcp(1), rate: 100)) }
      assert_equal "engine wrk is closed loop only; use engine: native for a rate", error.message
      assert_equal "a mix needs engine: native", wrk.unsupported(Struct.new(:mix?).new(true))
    end

    def test_no_summary_is_a_service_error_with_wrks_last_lines
      error = assert_raises(ServiceError) { Engines.fetch("wrk").new.parse("unable to connect\n", nil, ["wrk"]) }
      assert_equal "unable to connect\n", error.log_tail
    end
  end
end
