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
    #   use Rackbench::Probe::Middleware, dir: "/run/cell/probe", queue_corrections_us: {"10.0.0.3" => -1200}
    #
    # queue_corrections_us: for load from other hosts, whose stamps are in
    # their own clocks, what to add to arrival - stamp per client address
    # (REMOTE_ADDR; one host's correction applies to any address when there
    # is one load host, as behind a proxy). Hosts::Clock measures them.
    #
    # Loaded into the server's process by path: needs nothing else of rackbench.
    class Middleware
      def initialize(app, dir:, queue_corrections_us: {})
        @app = app
        @recorder = Recorder.new(dir)
        @corrections = queue_corrections_us.empty? ? nil : queue_corrections_us
        @only_correction = queue_corrections_us.size == 1 ? queue_corrections_us.values.first : 0
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
        if stamp&.start_with?("t=")
          queue_us = arrived_us - stamp[2..].to_i
          queue_us += @corrections.fetch(env["REMOTE_ADDR"], @only_correction) if @corrections
          queue_us = queue_us.clamp(0, nil)
        end
        @recorder.record(queue_us, done_us - arrived_us, (GC.stat(:time) - gc_ms) * 1000, GC.count - gc_count, done_us)
      end
    end
  end
end
