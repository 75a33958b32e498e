# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A process tree read from the kernel's lists of each thread's children.
  class ProcfsTreeTest < Minitest::Test
    # A child that forks two grandchildren from a thread of its own: the
    # children lists find the same tree the ppid of every process does.
    def test_a_tree_read_through_the_childrens_lists_is_the_tree_every_process_ppid_gives
      script = "Thread.new { 2.times { fork { sleep 30 } } }.join; sleep 30"
      pid = Process.spawn("ruby", "-e", script)
      tree = wait_until(message: "the child and its two forks") do
        found = Procfs.tree_stats([pid])
        found.size == 3 && found
      end
      everyone = Procfs.process_stats
      by_ppid = [pid] + everyone.select { |s| s.ppid == pid }.map(&:pid)
      assert_equal by_ppid.sort, tree.map(&:pid).sort
      assert_equal [pid], tree.map(&:pid).first(1), "the root first"
      assert_empty Procfs.tree_stats([(2**22) + 12_345]), "a root that is gone: no tree"
    ensure
      Procfs.children(pid).each { |child| Process.kill("KILL", child) } if pid
      Process.kill("KILL", pid) if pid
      Process.wait(pid) if pid
    end

    def test_a_proc_without_childrens_lists_leaves_the_tree_to_every_process_stat
      FileUtils.mkdir_p(File.join(tmpdir, "4242"))
      File.write(File.join(tmpdir, "4242", "stat"), "4242 (ruby) S 1 4242 4242 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 1 1000 10 0\n")
      assert_nil Procfs.tree_stats([4242], tmpdir)
      assert_equal [4242], Procfs.process_stats(tmpdir).map(&:pid)
    end
  end
end
