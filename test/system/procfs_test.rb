# frozen_string_literal: true

require "test_helper"

module Rackbench
  # /proc read and parsed in one place: stat lines become ProcessStats,
  # /proc/stat's CPU lines CpuTimes with one meaning of busy.
  class ProcfsTest < Minitest::Test
    # proc(5)'s layout with a command name holding a space and a parenthesis;
    # fields 14-17 (utime stime cutime cstime) are 100 + 50 + 30 + 20 ticks.
    STAT = "4242 (my (odd) name) S 4200 4242 4100 0 -1 4194560 100 0 0 0 100 50 30 20 20 0 7 0 " \
           "987654 1000000 250 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"

    def test_a_stat_line_becomes_a_process_stat_whatever_its_command_name_holds
      stat = Procfs.parse_process_stat(STAT)
      assert_equal [4242, "S", 4200, 4242, 4100], stat.to_a.first(5)
      assert_in_delta 2.0, stat.cpu_s, 1e-9, "its own time and its reaped children's: 200 ticks"
      assert_equal [7, 987_654, 250 * Procfs::PAGE_BYTES], [stat.threads, stat.start_ticks, stat.rss_bytes]
      refute stat.zombie?
    end

    # schedstat(5): time on a CPU, time runnable waiting for one, timeslices (ns).
    def test_the_run_queue_wait_is_every_threads_summed_in_seconds
      { 101 => "900 2000000000 5\n", 102 => "5 500000000 1\n" }.each do |tid, line|
        FileUtils.mkdir_p(File.join(tmpdir, "77", "task", tid.to_s))
        File.write(File.join(tmpdir, "77", "task", tid.to_s, "schedstat"), line)
      end
      assert_in_delta 2.5, Procfs.run_queue_wait_s(77, tmpdir), 1e-9
      assert_nil Procfs.run_queue_wait_s((2**22) + 12_345), "gone: nothing to say"
      assert_operator Procfs.run_queue_wait_s(Process.pid), :>=, 0, "this kernel keeps it"
    end

    def test_this_process_reads_as_itself
      stat = Procfs.process_stat(Process.pid)
      assert_equal [Process.pid, Process.ppid, Process.getpgrp], [stat.pid, stat.ppid, stat.pgrp]
      assert_includes Procfs.process_stats.map(&:pid), Process.pid
    end

    def test_a_process_that_is_gone_has_no_stat_and_no_command_line
      gone = (2**22) + 12_345
      assert_nil Procfs.process_stat(gone)
      assert_nil Procfs.command_line(gone)
      assert_nil Procfs.environ_value(gone, "PATH")
    end

    def test_the_environment_command_line_and_memory_of_a_child_are_read
      reader, writer = IO.pipe
      pid = Process.spawn({ "RACKBENCH_PROCFS_TEST" => "yes" }, "sleep", "30", in: reader)
      reader.close
      # Until sleep runs with its pages mapped (mid-exec, the kernel may show a command line and no memory yet).
      wait_until(message: "sleep running") do
        Procfs.command_line(pid) == "sleep 30" && Procfs.process_stat(pid).rss_bytes.positive?
      end
      assert_equal "yes", Procfs.environ_value(pid, "RACKBENCH_PROCFS_TEST")
      pss_bytes = Procfs.pss_bytes(pid)
      assert_operator pss_bytes, :positive?
      assert_operator pss_bytes, :<=, Procfs.process_stat(pid).rss_bytes, "PSS never exceeds RSS (sleep's memory holds still)"
    ensure
      Process.kill("KILL", pid) if pid
      Process.wait(pid) if pid
      writer&.close
    end

    def test_busy_is_user_nice_system_irq_and_softirq_while_steal_and_iowait_are_not
      before = Procfs.parse_cpu_line("cpu0 100 0 100 700 0 0 0 100 0 0")
      after = Procfs.parse_cpu_line("cpu0 200 10 150 1000 50 5 5 180 0 0")
      spent = after - before
      assert_in_delta 1.7, spent.busy_s, 1e-9
      assert_in_delta 0.8, spent.steal_s, 1e-9
      assert_in_delta 6.0, spent.total_s, 1e-9, "busy, idle, iowait and steal"
      assert_in_delta 1.7 / 6.0, spent.busy_share, 1e-9
    end

    def test_a_cpu_line_of_an_old_kernel_without_steal_still_reads
      assert_equal 0.0, Procfs.parse_cpu_line("cpu 1 2 3 4").steal_s
      assert_nil Procfs.parse_cpu_line("").busy_share, "nothing read: no share, not a division by zero"
    end

    def test_every_allowed_cpu_has_its_times
      cpus = Procfs.allowed_cpus
      assert_operator cpus.size, :>=, 1
      assert_equal cpus.first(1), Procfs.cpu_times(cpus.first(1)).keys
    end

    def test_a_snapshot_of_another_host_gives_stats_and_pss
      text = "#{STAT}1 (init) S 0 1 1 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 1 1000 10 0\nPSS 4242 Pss:  2048 kB\n"
      stats, pss = Procfs.parse_snapshot(text)
      assert_equal [4242, 1], stats.map(&:pid)
      assert_equal({ 4242 => 2_097_152 }, pss)
    end

    def test_the_snapshot_script_reads_this_machine_as_the_local_reader_does
      out = IO.popen({ "ROOTS" => Process.pid.to_s }, ["sh", "-c", Procfs::SNAPSHOT_SH], &:read)
      stats, pss = Procfs.parse_snapshot(out)
      assert_equal Process.ppid, stats.find { |s| s.pid == Process.pid }.ppid
      assert_includes pss.keys, Process.pid
    end
  end
end
