# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # Nothing rackbench starts outlives it: kill -9 at a random moment of a
  # real run leaves no process behind (the watchdog ends them), and what an
  # earlier rackbench left anyway is reported by the next run and ended by
  # --clean.
  class LeftoversTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")

    def test_kill_9_of_rackbench_run_quick_at_a_random_moment_leaves_nothing
      seed = Random.new_seed
      after_s = Random.new(seed).rand(0.0..3.0)
      pid = Process.spawn(BIN, "run", "quick", "--smoke", "--results", tmpdir, out: File::NULL, err: File::NULL)
      wait_until(timeout_s: 30, message: "a server started") { leftovers(pid).any? }
      sleep after_s # the random moment is the experiment
      Process.kill("KILL", pid)
      Process.wait(pid)
      wait_until(timeout_s: CLEANUP_DEADLINE_S, message: "nothing left #{after_s.round(2)} s into the run (seed #{seed})") do
        leftovers(pid).empty?
      end
    ensure
      leftovers(pid).each { |p| Process.kill("KILL", p) rescue nil } if pid # rubocop:disable Style/RescueModifier
    end

    # In a PID namespace of its own, so --clean sees only this test's orphan.
    def test_the_next_run_reports_what_a_gone_rackbench_left_and_clean_ends_it
      skip "needs unshare --pid (root)" unless system("unshare", "--pid", "--fork", "--mount-proc", "true",
                                                      err: File::NULL)
      suite = write_suite("duration_s" => 0.3)
      script = <<~SH
        sh -c 'exit 0' & owner=$!; wait $owner
        #{ProcessTable::OWNER_ENV}=$owner sleep 60 & orphan=$!
        "$0" run --results "$1" "$2" >/dev/null; echo "plain run: $?" >&2
        "$0" run --clean --results "$1" "$2" >/dev/null; echo "clean run: $?" >&2
        wait $orphan; echo "orphan: $?" >&2
      SH
      # Without the owner this test process may carry (a rackbench or bench/ci
      # running the suite): its pid is outside the namespace, so it looks gone.
      _out, err, status = Open3.capture3({ ProcessTable::OWNER_ENV => nil }, "unshare", "--pid", "--fork", "--mount-proc",
                                         "sh", "-c", script, BIN, tmpdir, suite)
      assert status.success?, err
      assert_match(/^rackbench: 1 process left by a rackbench that is gone \(pid \d+\) still running: \d+ sleep 60; /, err)
      assert_match(/they take CPU from this run \(rackbench run --clean ends them\)$/, err)
      assert_match(/^plain run: 0$/, err)
      assert_match(/^rackbench: ended 1 process left by a rackbench that is gone \(pid \d+\): \d+ sleep 60$/, err)
      assert_match(/^clean run: 0$/, err)
      assert_match(/^orphan: #{128 + Signal.list["TERM"]}$/, err)
    end
  end
end
