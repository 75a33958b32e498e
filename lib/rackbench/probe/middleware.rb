# frozen_string_literal: true

require_relative "recorder"

module Rackbench
  module Probe
    # The probe: a Rack middleware rackbench wraps around the app under test
    # when a suite says explain: true. Per request it records the queue time
    # (from the X-Request-Start stamp the load engine puts on each request to
    # this middleware's first line: the accept backlog, the server's own
    # queue, a proxy's), the app time (until the app returns its response;
    # a streamed body's iteration is not included), and the GC time and count
    # during the request (GC.stat deltas: a GC pauses every thread, so
    # concurrent requests each count it). GVL wait needs Ruby's thread
    # instrumentation (3.2+); on 3.1 it is not recorded.
    #
    #   use Rackbench::Probe::Middleware, dir: "/run/cell/probe"
    #
    # Loaded into the server's process by path: needs nothing else of rackbench.
    class Middleware
      def initialize(app, dir:)
        @app = app
        @recorder = Recorder.new(dir)
      end

      def call(env)
        arrived_us = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond)
        gc_ms = GC.stat(:time)
        gc_count = GC.count
        @app.call(env)
      ensure
        # One clock for both ends (the stamp is wall-clock time): a clock step during a request is rare and shows as an outlier.
        done_us = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond)
        stamp = env["HTTP_X_REQUEST_START"]
        queue_us = (arrived_us - stamp[2..].to_i).clamp(0, nil) if stamp&.start_with?("t=")
        @recorder.record(queue_us, done_us - arrived_us, (GC.stat(:time) - gc_ms) * 1000, GC.count - gc_count, done_us)
      end
    end
  end
end
