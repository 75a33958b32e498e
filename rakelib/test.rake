# frozen_string_literal: true

require "fileutils"
require "json"
require "rbconfig"
require "tmpdir"

# `rake test` runs each test file in a ruby of its own (warnings on), up to
# RACKBENCH_TEST_SHARDS of them at once (default: one more than the CPUs
# this process may use, three on two cores). Most files wait on real servers
# (fixed windows of load on sleeping endpoints, readiness, drains): beside a
# one-core hog, two at once used 0.93 of the two CPUs, 1377 CPU-s in 1482 s
# (the hog the rest), so a third file overlaps those waits. The same commit
# beside the hog: two at a time 1290 s, three 1071-1075 s in three runs in a
# row (all passed; the CPUs 94 % busy, hog included), four 1071 s (1445
# CPU-s against 1401-1419: no gain, the run is CPU-bound). Files are
# handed out longest first, by the seconds each took when last measured, to
# whichever process is free, so they finish close together whatever the
# machine's load. Each process is its own supervisor (tests find their
# leftovers by their own pid), so they cannot see each other's processes, and
# a file that leaks or crashes fails alone. TEST=path runs one file.
#
# Files measured under BATCH_UNDER_S (unit tests, and integration tests of
# one or two quick servers) share a ruby, up to BATCH_FILES and BATCH_S of
# measured seconds to one: a ruby's start under bundler with minitest and
# the code a file loads costs 0.5-0.8 s of CPU, most of a unit test's time
# (138 such files took 110 s of CPU one process each, 11 s all in one; the
# same 729 tests passed), and on a CPU-bound machine (beside a one-core hog)
# CPU is what the whole run waits for. A batch that fails prints its whole
# output and names the files its failures point at (all of its files if
# none is named).
#
# Each worker slot gives its files its own load-generator CPU
# (RACKBENCH_CLIENT_CPU, see Pinning): the first slot the last CPU, the next
# the one before (and so on, round the CPUs), so the workers' servers run on
# different CPUs instead of all on CPU 0 beside the load generators' idle one.
#
# Seconds per file come from tmp/test-seconds.json (this checkout's last run,
# written by every `rake test`), else from rakelib/test-seconds.json (a whole
# run's, committed: `rake test:seconds` copies the last run's there), else a
# rough guess by folder (UNMEASURED_S).
module TestQueue
  LAST_RUN = "tmp/test-seconds.json"
  COMMITTED = "rakelib/test-seconds.json"
  # A guess for a file measured nowhere yet, by folder (heaviest first).
  UNMEASURED_S = { "test/suite/builtin/" => 180, "test/targets/servers/jruby" => 120, "test/integration/" => 60,
                   "test/hosts/" => 45, "test/targets/servers/" => 60, "test/cli/" => 30, "test/targets/" => 30,
                   "test/reports/html" => 30, "test/ext/rackbench_load/" => 20, "" => 10 }.freeze
  LOADER = "ARGV.each { |f| require File.expand_path(f) }"
  BATCH_UNDER_S = 15
  BATCH_S = 30
  BATCH_FILES = 20

  module_function

  def seconds
    [COMMITTED, LAST_RUN].select { |f| File.exist?(f) }.map { |f| JSON.parse(File.read(f)) }.reduce({}, :merge)
  end

  # The seconds a file last took; a file measured nowhere counts as its folder's UNMEASURED_S.
  def seconds_of(file, measured) = measured.fetch(file) { UNMEASURED_S.find { |prefix, _| file.start_with?(prefix) }.last }

  # The jobs (lists of files, each run by one ruby), longest first: a file
  # alone, or files measured under BATCH_UNDER_S, in name order, as many to
  # a job as fit BATCH_S measured seconds and BATCH_FILES files.
  def order(files, measured = seconds)
    small, alone = files.partition { |f| files.size > 1 && measured.fetch(f, BATCH_UNDER_S) < BATCH_UNDER_S }
    jobs = alone.map { |f| [f] } + batches(small.sort, measured)
    jobs.sort_by { |job| [-job.sum { |f| seconds_of(f, measured) }, job.first] }
  end

  def batches(files, measured)
    files.each_with_object([]) do |file, jobs|
      job = jobs.last
      fits = job && job.size < BATCH_FILES && (job + [file]).sum { |f| measured.fetch(f) } <= BATCH_S
      fits ? job << file : jobs << [file]
    end
  end

  # Runs the files' jobs, at most `at_once` at a time; prints a line per job
  # as it ends (the whole output of one that failed); returns the files that failed.
  def run(files, at_once)
    queue = order(files)
    running = {}
    took = {}
    failed = []
    Dir.mktmpdir("rackbench-tests") do |dir|
      until queue.empty? && running.empty?
        start(queue.shift, dir, running, free_slot(running)) while running.size < at_once && !queue.empty?
        cpu_before_s = children_cpu_s
        pid, status = Process.wait2
        job, log, started = running.delete(pid)
        took_s = monotonic_s - started
        job.each { |file| took[file] = took_s / job.size } # a batch's files share its seconds
        failed.concat(report(job, log, status, took_s, children_cpu_s - cpu_before_s))
      end
    end
    remember(took)
    failed
  end

  def start(job, dir, running, slot)
    log = File.join(dir, "#{job.first.tr("/", "_")}.log")
    pid = Process.spawn(slot_env(slot), RbConfig.ruby, "-w", "-Ilib", "-Itest", "-e", LOADER, *job,
                        out: log, err: %i[child out])
    running[pid] = [job, log, monotonic_s, slot]
  end

  # One more file at a time than the CPUs this process may use.
  def default_at_once
    require_relative "../lib/rackbench"
    Rackbench::Pinning.available_cpus.size + 1
  end

  def free_slot(running) = (0..).find { |slot| running.values.none? { |entry| entry[3] == slot } }

  # The load generator's CPU for a slot's files: counted from the last CPU,
  # unless the caller chose one (or the machine has a single CPU).
  def slot_env(slot)
    require_relative "../lib/rackbench"
    cpus = Rackbench::Pinning.available_cpus
    return {} if ENV.key?(Rackbench::Pinning::CLIENT_CPU_VAR) || cpus.size < 2

    { Rackbench::Pinning::CLIENT_CPU_VAR => cpus[-1 - (slot % cpus.size)].to_s }
  end

  # Prints the job's line, its wall and CPU seconds (its own and those of the
  # processes it waited for: servers, proxies, load generators), and its
  # output if it failed; returns its files that failed.
  def report(job, log, status, took_s, cpu_s)
    output = File.read(log)
    counts = output.lines.grep(/\d+ runs, \d+ assertions/).last&.strip || "no test summary (#{status.inspect})"
    name = job.size == 1 ? job.first : "#{job.size} files: #{job.first} .. #{job.last}"
    puts format("%6.1f s %6.1f CPU-s  %-60s %s", took_s, cpu_s, name, counts)
    puts job.join(" ").gsub(/^/, "    ") if job.size > 1 && !status.success?
    puts output.gsub(/^/, "    ") unless status.success?
    status.success? ? [] : failed_files(job, output)
  end

  # The files of a job that its failures and errors point at; all of them if none is named.
  def failed_files(job, output)
    return job if job.size == 1

    named = job.select { |file| output.include?("#{file}:") || output.include?("#{File.expand_path(file)}:") }
    named.empty? ? job : named
  end

  def remember(took)
    FileUtils.mkdir_p(File.dirname(LAST_RUN))
    last = File.exist?(LAST_RUN) ? JSON.parse(File.read(LAST_RUN)) : {}
    File.write(LAST_RUN, JSON.pretty_generate(last.merge(took.transform_values { |s| s.round(1) }).sort.to_h))
  end

  def monotonic_s = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # CPU seconds of the children reaped so far (each wait adds the job's own
  # and its reaped descendants').
  def children_cpu_s = Process.times.then { |t| t.cutime + t.cstime }
end

desc "Run the tests (a ruby per file or batch, RACKBENCH_TEST_SHARDS at once, default CPUs + 1; TEST=\"file ...\" for those)"
task test: :compile do
  $stdout.sync = true
  files = ENV["TEST"] ? ENV["TEST"].split : Dir["test/**/*_test.rb"]
  at_once = Integer(ENV.fetch("RACKBENCH_TEST_SHARDS") { TestQueue.default_at_once.to_s })
  started = TestQueue.monotonic_s
  cpu_before_s = TestQueue.children_cpu_s
  failed = TestQueue.run(files, at_once)
  puts format("rake test: %d files, %d at a time, %.0f s, %.0f CPU-s", files.size, [at_once, files.size].min,
              TestQueue.monotonic_s - started, TestQueue.children_cpu_s - cpu_before_s)
  abort "rake test: #{failed.size} failed (their output is above): #{failed.join(" ")}" unless failed.empty?
end

namespace :test do
  desc "Keep the seconds per file of the last whole `rake test` in #{TestQueue::COMMITTED} (the order files start in)"
  task :seconds do
    last = JSON.parse(File.read(TestQueue::LAST_RUN))
    kept = last.select { |f, _| f.start_with?("test/") && File.exist?(f) }.sort.to_h
    File.write(TestQueue::COMMITTED, "#{JSON.pretty_generate(kept)}\n")
    puts "#{TestQueue::COMMITTED}: #{last.size} files"
  end
end
