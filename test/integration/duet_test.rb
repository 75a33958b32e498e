# frozen_string_literal: true

require "test_helper"

module Rackbench
  # duet: true loads the configs of a round at the same time, each server
  # tree in a CPU group of equal weight (FairShare), and keeps each one's
  # window as its own repeat, paired by round as ever.
  class DuetTest < Minitest::Test
    include TestHelpers

    # A window a start on two starts: two rounds, the fewest that pair
    # (Comparison#paired?), each on its own server trees in the CPU groups.
    def test_the_configs_of_a_round_are_loaded_at_the_same_time_and_paired
      store, _, a, b = measure_pair("repeats" => 2, "deployments" => 2, "duet" => true)
      assert_equal [[1, 2], [1, 2]], [a, b].map { |m| m.repeats.map(&:deployment) }, "a window on each of two starts"
      a.repeats.zip(b.repeats).each do |ra, rb|
        assert_equal ra.round, rb.round
        apart_s = (ra.noise["load_started_us"] - rb.noise["load_started_us"]).abs / 1e6
        assert_operator apart_s, :<, 1, "round #{ra.round}: windows of 1 s began #{apart_s} s apart: they never overlapped"
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

    # ratio: duet keeps the windows in turns for every figure and adds one
    # ratio window a start, loaded at once, which only the comparison reads.
    # Two starts of a window in turns each: the second start shows whether a
    # ratio window follows one whose server idled.
    def test_ratio_windows_are_loaded_at_once_and_only_the_comparison_reads_them
      store, run_id, a, b = measure_pair("repeats" => 2, "deployments" => 2, "ratio" => "duet")
      assert_equal [2, 2], [a.repeats.size, b.repeats.size], "the figures read the 2 windows in turns"
      first_busy = [a, b].all? { |m| Measurement::DuetBusy.busy?(m.ratio_repeats.first(1)) }
      assert_equal(first_busy ? [2, 2] : [1, 1], [a.ratio_repeats.size, b.ratio_repeats.size],
                   "one ratio window a start, none after one whose server idled")
      a.ratio_repeats.zip(b.ratio_repeats).each do |ra, rb|
        assert_equal ra.round, rb.round
        assert_equal ra.noise["start_at"], rb.noise["start_at"], "round #{ra.round}: both loads given one instant"
        refute_nil ra.noise["start_line_at"], "the duet's instant kept, whatever the engine"
        assert_equal ra.noise["start_line_at"], rb.noise["start_line_at"]
        assert_includes a.repeats.map(&:deployment), ra.deployment, "a ratio window belongs to a start measured in turns"
      end
      turns = a.repeats.map(&:round) | b.repeats.map(&:round)
      assert_empty turns & a.ratio_repeats.map(&:round), "ratio windows have rounds of their own"
      comparison = Comparison.new(a, b)
      busy = [a, b].all? { |m| Measurement::DuetBusy.busy?(m.ratio_repeats) }
      assert_equal busy, comparison.ratio_windows?, "the ratio is the duet's exactly while both servers kept the CPU busy"
      assert_equal busy ? "duet windows" : nil, comparison.to_h["ratio_from"]
      stored = store.repeats(run_id).values.flatten.count(&:ratio?)
      assert_equal a.ratio_repeats.size * 2, stored, "every ratio window stored, marked as one"
      assert_nothing_left
    ensure
      store&.close
    end

    # Sequential: its figures only need the windows in turns, so a block its
    # ratio windows decide takes one a start in its first stage (two from the
    # start after one whose ratio window showed a server idle); the run
    # stores that it did. Two starts: the second is decided by the first's
    # ratio window.
    def test_a_block_its_ratio_windows_decide_takes_one_window_in_turns_a_start_in_its_first_stage
      store, run_id, a, b = measure_pair("repeats" => "auto", "stopping" => "sequential",
                                         "deployments" => 2, "max_deployments" => 2, "windows" => 2, "ratio" => "duet")
      [a, b].each do |m|
        expected = (1..2).to_h do |start|
          busy = [a, b].all? { |c| Measurement::DuetBusy.busy?(c.ratio_repeats.select { |r| r.deployment < start }, unknown: true) }
          [start, busy ? 1 : 2]
        end
        assert_equal expected, m.repeats.group_by(&:deployment).transform_values(&:size), "#{m.label}: windows in turns a start"
      end
      assert_equal 1, store.run(run_id)["settings"]["ratio_stage_windows"], "the run says its first stage took one"
      assert_nothing_left
    ensure
      store&.close
    end

    private

    # Two pumas of one thread under labels A and B on /fibonacci/18, run with
    # these settings (windows of 1 s, no warm-up); [store, run id, A's and B's
    # measurement], both measured.
    def measure_pair(settings)
      store = Store.new(tmpdir)
      suite = Suite.load(write_suite({ "engine" => "native", "endpoints" => ["/fibonacci/18"],
                                       "servers" => [{ "server" => "puma", "threads" => 1, "label" => "A" },
                                                     { "server" => "puma", "threads" => 1, "label" => "B" }] }
                                       .merge(settings)))
      run_id = Runner.new(suite, store: store).run
      a, b = store.measurements(run_id)
      assert_equal(%w[ok ok], [a.status, b.status], [a.reason, b.reason].compact.join("; "))
      [store, run_id, a, b]
    rescue StandardError, Minitest::Assertion
      store&.close # the caller never gets it
      raise
    end
  end
end
