# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Equal CPU shares for a duet, in the machine's real cgroups (root only).
  class FairShareTest < Minitest::Test
    include TestHelpers

    def setup
      @share = FairShare.new(slots: 2)
      skip "no cpu cgroup to write here: #{@share.reason}" unless @share.available?
    end

    def test_each_tree_goes_into_its_own_group_and_the_groups_go_when_closed
      parent = Process.spawn("sh", "-c", "sleep 30 & sleep 30; wait")
      other = Process.spawn("sleep", "30")
      wait_until(message: "the child of the first tree") { children_of(parent).any? }
      @share.assign(0, [parent])
      @share.assign(1, [other])
      groups = [parent, *children_of(parent)].map { |pid| cpu_group(pid) }
      assert_equal 1, groups.uniq.size, "the whole first tree in one group: #{groups}"
      assert_match(%r{/rackbench-#{Process.pid}/slot-0\z}, groups.first)
      assert_match(%r{/rackbench-#{Process.pid}/slot-1\z}, cpu_group(other))
    ensure
      [parent, other].compact.each { |pid| end_tree(pid) }
      @share&.close
      assert_empty Dir[File.join(FairShare::V1, "rackbench-#{Process.pid}")], "nothing left behind"
    end

    def test_groups_a_rackbench_that_is_gone_left_behind_are_found_and_removed
      gone = Process.spawn("true")
      Process.wait(gone)
      root = File.join(tmpdir, "cpu")
      FileUtils.mkdir_p(File.join(root, "rackbench-#{gone}", "slot-0"))
      FileUtils.mkdir_p(File.join(root, "rackbench-#{Process.pid}"))
      assert_equal [File.join(root, "rackbench-#{gone}")], FairShare.leftovers(roots: [root])
      FairShare.remove_leftovers(roots: [root])
      assert_equal ["rackbench-#{Process.pid}"], Dir.children(root), "only the living rackbench's group stays"
    end

    def test_a_machine_without_a_cpu_cgroup_says_why
      share = FairShare.new(slots: 2, v1_root: File.join(tmpdir, "cpu"), v2_root: tmpdir)
      refute share.available?
      assert_match(/no cgroup file system|no writable cpu cgroup/, share.reason)
      share.assign(0, [Process.pid]) # does nothing, raises nothing
    end

    private

    def children_of(pid) = Procfs.process_stats.select { |s| s.ppid == pid }.map(&:pid)

    # The process's group in the cpu controller (v1), or its v2 group.
    def cpu_group(pid)
      lines = File.read("/proc/#{pid}/cgroup").lines.map { |l| l.strip.split(":", 3) }
      (lines.find { |_, controllers, _| controllers.split(",").include?("cpu") } || lines.find { |id, _, _| id == "0" }).last
    end

    def end_tree(pid)
      children_of(pid).each { |child| Process.kill(:TERM, child) rescue nil } # rubocop:disable Style/RescueModifier
      Process.kill(:TERM, pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end
end
