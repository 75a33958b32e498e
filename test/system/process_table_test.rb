# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Real child processes: a wait watches the members found, and reads the
  # table again once they are gone.
  class ProcessTableTest < Minitest::Test
    def teardown
      @started.to_a.each do |pid|
        Process.kill("KILL", pid)
      rescue Errno::ESRCH
        nil
      ensure
        Process.wait(pid) rescue nil # rubocop:disable Style/RescueModifier
      end
      super
    end

    def start(seconds) = (@started ||= []).push(spawn("sleep", seconds.to_s)).last

    def test_a_wait_sees_members_started_meanwhile_and_ends_once_the_table_has_none
      first = start(0.3)
      finds = [-> { [first] }, -> { [start(0.2)] }, -> { [] }]
      reads = []
      left = ProcessTable.wait_until_gone(30, interval_s: 0.01) { reads.push(finds[reads.size].call).last }
      assert_equal [], left
      assert_equal 3, reads.size, "read once for the first, once for the one started meanwhile, once to find none"
      refute ProcessTable.live?(first)
    end

    def test_a_group_with_no_process_left_is_empty_and_one_with_a_live_process_is_not
      leader = spawn("sleep", "30", pgroup: true)
      (@started ||= []) << leader
      assert ProcessTable.group_exists?(leader)
      assert_equal [leader], ProcessTable.group_members([leader])
      Process.kill("KILL", leader)
      Process.wait(leader)
      refute ProcessTable.group_exists?(leader)
      assert_equal [], ProcessTable.group_members([leader])
    end

    def test_a_wait_past_its_timeout_returns_the_members_still_live
      lasting = start(30)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      assert_equal [lasting], ProcessTable.wait_until_gone(0.2, interval_s: 0.01) { [lasting] }
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.2
      assert ProcessTable.live?(lasting)
    end
  end
end
