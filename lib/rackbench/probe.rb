# frozen_string_literal: true

module Rackbench
  # Latency broken into queue, app and GC (a suite's explain: true): the
  # engine stamps each request (X-Request-Start), the app under test runs
  # inside Probe::Middleware (written around it by Probe::Wrapper), each
  # server process writes its records (Probe::Recorder), the Window merges
  # those of a measured window (Probe::Window), and Probe::Breakdown turns a
  # cell's windows into p50/p99 split into queue, app and GC.
  module Probe
  end
end
require_relative "probe/middleware" # and the recorder and histogram it loads into the server
require_relative "probe/window"
require_relative "probe/breakdown"
require_relative "probe/wrapper"
