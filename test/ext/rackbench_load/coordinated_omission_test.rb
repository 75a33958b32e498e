# frozen_string_literal: true

require_relative "engine_helper"

module Rackbench
  # Coordinated omission, shown by measurement: one nginx is stalled (SIGSTOP)
  # for 1 second in the middle of two 10-second runs that share it, one open
  # loop and one closed loop. The open loop measures from each request's
  # scheduled send time, so the ~10 % of requests due during the stall carry
  # up to a second of waiting and p99 rises to hundreds of milliseconds. The
  # closed loop simply stops asking while the server is stalled: only its few
  # in-flight requests see the stall, and its p99 stays an order of magnitude
  # below the open loop's.
  class NativeCoordinatedOmissionTest < Minitest::Test
    include EngineHelpers

    RUN_S = 10
    STALL_AT_S = 4
    STALL_S = 1.0

    def spawn_load(name, *args)
      EngineHelpers.build!
      out = File.join(tmpdir, "#{name}.json")
      child = supervisor.spawn([BINARY, "--json", *args.map(&:to_s)], name: name, log_path: out)
      [child, out]
    end

    def wait_for_exit(child)
      wait_until(timeout_s: RUN_S + 10, message: "#{child.name} finished") { !child.alive? }
      assert child.status.success?, child.log_tail
      JSON.parse(File.read(child.log_path).lines.find { |l| l.start_with?("{") })
    end

    def test_a_stall_lifts_open_loop_p99_but_hides_from_closed_loop_p99
      nginx, base = start_nginx
      url = "#{base}/hello"
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      open_loop, = spawn_load("open", url, "-c", 50, "-d", "#{RUN_S}s", "--rate", 2000, "--timeout", "5s")
      closed_loop, = spawn_load("closed", url, "-c", 4, "-d", "#{RUN_S}s", "--timeout", "5s")

      # the stall itself is the experiment: stop the server at a fixed point of the run
      sleep([started + STALL_AT_S - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max)
      (@stopped ||= []) << nginx.pid
      Process.kill("STOP", nginx.pid)
      sleep STALL_S
      Process.kill("CONT", nginx.pid)

      open = wait_for_exit(open_loop)
      closed = wait_for_exit(closed_loop)
      open_p99 = open["latency_us"]["p99"]
      closed_p99 = closed["latency_us"]["p99"]

      # the stall lasts at least STALL_S; a busy machine can only lengthen it
      assert_operator open_p99, :>=, 300_000, "open loop p99 shows the stall (~10 % of the run)"
      assert_operator closed["latency_us"]["max"], :>=, 800_000, "closed loop saw the stall..."
      assert_operator open_p99, :>, 10 * closed_p99,
                      "...but its p99 hides it: open #{open_p99} us, closed #{closed_p99} us"
      assert_equal 0, errors_total(open) + errors_total(closed)
      assert_operator open["requests"], :<=, (2000 * RUN_S) + 50, "no more than scheduled"
      assert_operator open["requests"], :>, 2000 * RUN_S / 10
    end
  end
end
