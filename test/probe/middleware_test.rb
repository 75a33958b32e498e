# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    # The middleware around a Rack app, called in this process.
    class MiddlewareTest < Minitest::Test
      include TestHelpers

      def call_and_read(env)
        app = Middleware.new(->(_env) { [200, { "content-type" => "text/plain" }, ["ok"]] }, dir: tmpdir)
        from = Window.now_us
        response = app.call(env)
        [response, Window.read_settled(tmpdir, from_us: from - Recorder::SLOT_US, to_us: Window.now_us + Recorder::SLOT_US)]
      end

      def test_the_queue_time_is_the_arrival_less_the_engines_stamp
        stamp = Window.now_us - 30_000
        response, window = call_and_read("HTTP_X_REQUEST_START" => "t=#{stamp}")

        assert_equal 200, response.first
        assert_equal [1, 1], window.values_at("n", "stamped")
        queue_ms = Histogram.percentile(window["queue"], 50) / 1000.0

        assert_operator queue_ms, :>=, 29
      end

      def test_a_request_without_a_stamp_has_app_time_but_no_queue_time
        _, window = call_and_read({})

        assert_equal [1, 0], window.values_at("n", "stamped")
        assert_empty window["queue"]
      end
    end
  end
end
