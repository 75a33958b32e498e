# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    # The middleware around a Rack app, called in this process.
    class MiddlewareTest < Minitest::Test
      include TestHelpers

      def call_and_read(env, **options)
        app = Middleware.new(->(_env) { [200, { "content-type" => "text/plain" }, ["ok"]] }, dir: tmpdir, **options)
        from = Window.now_us
        response = app.call(env)
        [response, Window.read_settled(tmpdir, from_us: from - Recorder::SLOT_US, to_us: Window.now_us + Recorder::SLOT_US)]
      end

      def test_the_queue_time_is_the_arrival_less_the_engines_stamp
        stamp = Window.now_us - 30_000
        response, window = call_and_read({ "HTTP_X_REQUEST_START" => "t=#{stamp}" })

        assert_equal 200, response.first
        assert_equal [1, 1], window.values_at("n", "stamped")
        queue_ms = Histogram.percentile(window["queue"], 50) / 1000.0

        assert_operator queue_ms, :>=, 29
      end

      # A load host whose clock is 5 s ahead stamps a request that waited 30 ms:
      # its correction (Hosts::Clock) puts the stamp into the server's clock.
      def test_a_stamp_from_a_host_with_another_clock_is_corrected_by_its_address
        stamp = Window.now_us + 5_000_000 - 30_000
        env = { "HTTP_X_REQUEST_START" => "t=#{stamp}", "REMOTE_ADDR" => "10.9.0.3" }
        _, uncorrected = call_and_read(env.dup)
        _, corrected = call_and_read(env, queue_corrections_us: { "10.9.0.3" => 5_000_000, "10.9.0.4" => 0 })
        queue_ms = Histogram.percentile(corrected["queue"], 50) / 1000.0

        assert_operator Histogram.percentile(uncorrected["queue"], 50), :<, 1, "5 s in the future: no queue at all"
        assert_operator queue_ms, :>=, 29
        assert_operator queue_ms, :<, 5000
      end

      def test_a_request_without_a_stamp_has_app_time_but_no_queue_time
        _, window = call_and_read({})

        assert_equal [1, 0], window.values_at("n", "stamped")
        assert_empty window["queue"]
      end
    end
  end
end
