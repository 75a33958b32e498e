# frozen_string_literal: true

require "test_helper"

module Rackbench
  class SamplerTest < Minitest::Test
    # A window ends when the load does: stop wakes the sampling thread
    # instead of waiting out its interval (here a minute; the 30 s bound is a
    # safety net far from the few milliseconds it takes).
    def test_stop_ends_the_sampling_at_once_with_one_last_sample
      sampler = Sampler.new(root_pids: [Process.pid], interval_s: 60).start
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      samples = sampler.stop
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 30, "stop waited out the interval"
      assert_equal 2, samples.size, "the sampling thread's first and the one taken at stop"
      assert_operator samples.last.t_s, :>=, samples.first.t_s
    end

    def test_it_sees_every_process_of_a_forked_tree_and_its_memory
      supervisor = Supervisor.new
      script = "3.times { fork { x = 'a' * 20_000_000; sleep 30 } }; sleep 30"
      child = supervisor.spawn(["ruby", "-e", script], name: "forks", log_path: File.join(tmpdir, "f.log"))
      sampler = Sampler.new(root_pids: [child.pid])
      sample = wait_until(message: "4 processes with 60 MB") do
        s = sampler.take
        s.processes == 4 && s.rss_bytes > 60_000_000 && s
      end
      assert_operator sample.pss_bytes, :<=, sample.rss_bytes, "PSS never exceeds RSS: shared pages are split"
      assert_operator sample.threads, :>=, 4, "at least a thread per process"
    ensure
      supervisor.stop_all
    end

    # 003_766978340d4031d9.txt's per-worker memory: the mean of the processes
    # below the root (a master's workers), each holding its own 20 MB string.
    def test_a_worker_is_one_process_below_the_root_and_its_memory_is_theirs_not_the_masters
      supervisor = Supervisor.new
      script = "2.times { fork { x = 'a' * 20_000_000; x << 'b'; sleep 30 } }; sleep 30"
      child = supervisor.spawn(["ruby", "-e", script], name: "forks", log_path: File.join(tmpdir, "w.log"))
      sampler = Sampler.new(root_pids: [child.pid])
      # Both workers hold their string once the mean PSS is over 20 MB (the
      # mean RSS alone passed while one worker still built it, its copy doubling).
      sample = wait_until(message: "2 workers of 20 MB") do
        s = sampler.take
        s.workers == 2 && s.worker_pss_bytes > 20_000_000 && s
      end
      assert_operator sample.worker_rss_bytes, :<, sample.rss_bytes, "a worker is less than the whole tree"
      assert_operator sample.worker_pss_bytes, :<=, sample.worker_rss_bytes
      summary = Sampler.summarize([sample, *sampler.stop])
      assert_equal 2, summary["workers_max"]
      assert_operator summary["worker_pss_max_bytes"], :>, 20_000_000
    ensure
      supervisor.stop_all
    end

    def test_cpu_time_grows_while_the_tree_computes
      supervisor = Supervisor.new
      child = supervisor.spawn(["ruby", "-e", "loop { 2**64 }"], name: "spin", log_path: File.join(tmpdir, "s.log"))
      sampler = Sampler.new(root_pids: [child.pid])
      first = sampler.take
      reading_s, reading_cpu_s = sampler.cpu_reading
      wait_until(message: "0.2 s of CPU") { sampler.take.cpu_s - first.cpu_s >= 0.2 }
      later_s, = wait_until(message: "the stat lines alone read 0.2 s of CPU too") do
        (later = sampler.cpu_reading)[1] - reading_cpu_s >= 0.2 && later
      end
      assert_operator later_s, :>, reading_s
      summary = Sampler.summarize(sampler.stop)
      assert_operator summary["cpu_s"], :>=, 0.2
      assert_operator summary["cpu_percent"], :>, 0, "a share, not a speed: a busy machine may give the spinner little"
    ensure
      supervisor.stop_all
    end

    # Two spinning processes confined to one CPU take turns: each waits,
    # runnable, while the other runs, and the tree's wait grows with them.
    def test_the_trees_wait_for_a_cpu_grows_while_its_processes_share_one
      supervisor = Supervisor.new
      cpu = Pinning.available_cpus.first
      spin = ["ruby", "-e", "fork { loop { 2**64 } }; loop { 2**64 }"]
      child = supervisor.spawn(spin, name: "two-spinners", log_path: File.join(tmpdir, "w.log"), cpus: [cpu])
      sampler = Sampler.new(root_pids: [child.pid])
      first = wait_until(message: "two processes") { (s = sampler.take).processes == 2 && s }
      wait_until(message: "0.2 s waited for the CPU") { sampler.take.cpu_wait_s - first.cpu_wait_s >= 0.2 }
      summary = Sampler.summarize(sampler.stop)
      assert_operator summary["cpu_wait_s"], :>=, 0.2, "the summary keeps the window's wait"
      assert_operator summary["sampled_s"], :>, 0
    ensure
      supervisor.stop_all
    end

    def test_a_tree_that_is_gone_gives_an_empty_sample
      sample = Sampler.new(root_pids: [(2**22) + 12_345]).take
      assert_equal [0, 0], [sample.processes, sample.rss_bytes]
    end

    # A cluster's start: the master alone, one worker, both; then the first
    # window. The series starts when both workers existed, at negative times
    # from the window's start.
    def test_a_first_windows_series_starts_from_the_fork_of_all_workers
      sample = lambda do |t_s, pids, uss_mb|
        Sampler::Sample.new(t_s: t_s, worker_pss_bytes: uss_mb << 20, worker_uss_bytes: uss_mb << 20, workers: pids.size,
                            worker_pids: pids)
      end
      boot = [sample.call(0.0, [1], 9), sample.call(0.5, [2], 30), sample.call(1.0, [2, 3], 3), sample.call(2.0, [2, 3], 5)]
      window = [sample.call(0.0, [2, 3], 5), sample.call(0.5, [2, 3], 8)]
      series = Sampler.memory_series(window, boot: boot)

      assert_equal [-1.0, -0.0, 0.0, 0.5], series.map(&:first)
      assert_equal([3, 5, 5, 8].map { |mb| mb << 20 }, series.map { |p| p[2] })
      assert_equal 2, Sampler.memory_series(window).size, "later windows: their own samples only"
    end
  end
end
