# frozen_string_literal: true

require "test_helper"

module Rackbench
  # duet: true loads the configs of a round at the same time, each server
  # tree in a CPU group of equal weight (FairShare), and keeps each one's
  # window as its own repeat, paired by round as ever.
  class DuetTest < Minitest::Test
    include TestHelpers

    def test_the_configs_of_a_round_are_loaded_at_the_same_time_and_paired
      store = Store.new(tmpdir)
      suite = Suite.load(write_suite("engine" => "native", "endpoints" => ["/fibonacci/18"], "duration_s" => 2,
                                     "repeats" => 4, "deployments" => 2, "duet" => true,
                                     "servers" => [{ "server" => "puma", "threads" => 1, "label" => "A" },
                                                   { "server" => "puma", "threads" => 1, "label" => "B" }]))
      run_id = Runner.new(suite, store: store).run
      a, b = store.measurements(run_id)
      assert_equal(%w[ok ok], [a.status, b.status], [a.reason, b.reason].compact.join("; "))
      a.repeats.zip(b.repeats).each do |ra, rb|
        assert_equal ra.round, rb.round
        apart_s = (ra.noise["load_started_us"] - rb.noise["load_started_us"]).abs / 1e6
        assert_operator apart_s, :<, 2, "round #{ra.round}: windows of 2 s began #{apart_s} s apart: they never overlapped"
        assert_equal ra.noise["start_at"], rb.noise["start_at"], "round #{ra.round}: both loads given one instant"
        [ra, rb].each { |r| assert_operator r.noise["start_late_s"], :>=, 0, "the engine says how late it began" }
        assert_match(/cgroup|no fair shares/, ra.noise["duet"])
      end
      assert Comparison.new(a, b).paired?
      assert_empty Dir[File.join(FairShare::V1, "rackbench-#{Process.pid}")], "the CPU groups removed"
      assert_nothing_left
    ensure
      store&.close
    end
  end
end
