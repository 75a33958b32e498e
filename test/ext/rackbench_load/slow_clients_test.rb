# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # Slow clients beside full-speed ones, against thin: the slow connections
  # send their uploads and read their answers at the paces asked (the
  # engine's own counts: bytes over the seconds the transfers took), and the
  # fast ones are measured apart, through the native engine's adapter.
  #
  # Not puma: puma 8.0.2 now and then sends a kept-alive answer without its
  # status line and first headers (Server#process_client's ensure resets the
  # client's io_buffer after handing the client to the reactor, while another
  # thread writes its next answer there; seen here as one "malformed" among
  # thousands, and made frequent by yielding the GVL after str_headers). The
  # engine counts that rightly; this test is about pacing.
  class NativeSlowClientsTest < Minitest::Test
    include EngineHelpers

    SEND_BYTES_PER_S = 2000
    READ_BYTES_PER_S = 16_000
    PACE_TOLERANCE = 0.20

    def test_slow_clients_hold_the_pace_asked_while_fast_clients_are_measured_apart
      _thin, base = start_thin(app: upload_app)
      EngineHelpers.build!
      slow = Engines::SlowClients.new(connections: 3, send_bytes_per_s: SEND_BYTES_PER_S,
                                      read_bytes_per_s: READ_BYTES_PER_S)
      # each slow request: about 2 KB sent in 1 s, then 32 KB read in 2 s
      traffic = Traffic.new("path" => "/upload?size=32768", "method" => "POST", "body" => "u" * 2048)
      load = Engines::Load.new(target: Target.tcp(base[/:(\d+)\z/, 1].to_i, "/upload?size=32768"), concurrency: 2,
                               duration_s: 8, timeout_s: 10, traffic: traffic, slow_clients: slow)
      result = Engines.fetch("native").new.run(load, supervisor: supervisor, dir: tmpdir)
      fast = result.fast_clients
      slow_group = result.slow_clients

      paced = slow_group.data["paced"].inspect
      assert_in_delta SEND_BYTES_PER_S, slow_group.held_send_bytes_per_s, SEND_BYTES_PER_S * PACE_TOLERANCE, paced
      assert_in_delta READ_BYTES_PER_S, slow_group.held_read_bytes_per_s, READ_BYTES_PER_S * PACE_TOLERANCE, paced
      assert_operator slow_group.requests, :>=, 3, "each slow connection finished at least one request in 8 s"
      assert_operator slow_group.latency_ms(50), :>=, 3000 * (1 - PACE_TOLERANCE), "a slow request takes its pacing"
      assert_equal [2, 3], [fast.connections, slow_group.connections]
      assert_equal result.requests, fast.requests + slow_group.requests
      assert_operator fast.requests, :>, 20 * slow_group.requests, "full-speed clients are not held to the slow pace"
      assert_operator fast.latency_ms(99), :<, slow_group.latency_ms(50)
      assert_equal 0, result.error_count, result.errors.inspect
      assert_includes result.command, "--slow-connections"
    end
  end
end
