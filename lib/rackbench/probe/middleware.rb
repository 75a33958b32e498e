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
      STAMP = /t=(\d+)/

      def initialize(app, dir:)
        @app = app
        @recorder = Recorder.new(dir)
      end

      def call(env)
        arrived_us = Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond)
        started_us = Process.clock_gettime(Process::CLOCK_MONOTONIC, :microsecond)
        gc_ms = GC.stat(:time)
        gc_count = GC.count
        @app.call(env)
      ensure
        app_us = Process.clock_gettime(Process::CLOCK_MONOTONIC, :microsecond) - started_us
        stamp = env["HTTP_X_REQUEST_START"]&.[](STAMP, 1)
        @recorder.record(queue_us: stamp && [arrived_us - stamp.to_i, 0].max, app_us: app_us,
                         gc_us: (GC.stat(:time) - gc_ms) * 1000, gc_count: GC.count - gc_count)
      end
    end
  end
end
