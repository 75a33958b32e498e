# frozen_string_literal: true

require "fileutils"
require "json"
require "rbconfig"
require "tmpdir"

# `rake test` runs each test file in a ruby of its own (warnings on), up to
# RACKBENCH_TEST_SHARDS of them at once (default 2: most tests wait on real
# servers, so two processes halve the wall time on two cores). Three overlap
# more of those waits (two left two cores 40 to 85 % idle): under a one-core
# hog 686-715 s, but three of six such runs failed one test each (all three
# mended since); two passed six such runs in a row in 790-851 s, within the
# 15 minutes, so two stays the default. Files are
# handed out longest first, by the seconds each took when last measured, to
# whichever process is free, so they finish close together whatever the
# machine's load. Each process is its own supervisor (tests find their
# leftovers by their own pid), so they cannot see each other's processes, and
# a file that leaks or crashes fails alone. TEST=path runs one file.
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

  module_function

  def seconds
    [COMMITTED, LAST_RUN].select { |f| File.exist?(f) }.map { |f| JSON.parse(File.read(f)) }.reduce({}, :merge)
  end

  # Longest first; a file measured nowhere counts as its folder's UNMEASURED_S.
  def order(files, measured = seconds)
    files.sort_by { |f| [-measured.fetch(f) { UNMEASURED_S.find { |prefix, _| f.start_with?(prefix) }.last }, f] }
  end

  # Runs files, at most `at_once` at a time; prints a line per file as it
  # ends (the whole output of a file that failed); returns the files that failed.
  def run(files, at_once)
    queue = order(files)
    running = {}
    took = {}
    failed = []
    Dir.mktmpdir("rackbench-tests") do |dir|
      until queue.empty? && running.empty?
        start(queue.shift, dir, running, free_slot(running)) while running.size < at_once && !queue.empty?
        pid, status = Process.wait2
        file, log, started = running.delete(pid)
        took[file] = monotonic_s - started
        report(file, log, status, took[file])
        failed << file unless status.success?
      end
    end
    remember(took)
    failed
  end

  def start(file, dir, running, slot)
    log = File.join(dir, "#{file.tr("/", "_")}.log")
    pid = Process.spawn(slot_env(slot), RbConfig.ruby, "-w", "-Ilib", "-Itest", "-e", LOADER, file,
                        out: log, err: %i[child out])
    running[pid] = [file, log, monotonic_s, slot]
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

  def report(file, log, status, took_s)
    output = File.read(log)
    counts = output.lines.grep(/\d+ runs, \d+ assertions/).last&.strip || "no test summary (#{status.inspect})"
    puts format("%6.1f s  %-60s %s", took_s, file, counts)
    puts output.gsub(/^/, "    ") unless status.success?
  end

  def remember(took)
    FileUtils.mkdir_p(File.dirname(LAST_RUN))
    last = File.exist?(LAST_RUN) ? JSON.parse(File.read(LAST_RUN)) : {}
    File.write(LAST_RUN, JSON.pretty_generate(last.merge(took.transform_values { |s| s.round(1) }).sort.to_h))
  end

  def monotonic_s = Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

desc "Run the tests (a process per file, RACKBENCH_TEST_SHARDS at once, default 2; TEST=file for one file)"
task test: :compile do
  $stdout.sync = true
  files = ENV["TEST"] ? [ENV["TEST"]] : Dir["test/**/*_test.rb"]
  at_once = Integer(ENV.fetch("RACKBENCH_TEST_SHARDS", "2"))
  started = TestQueue.monotonic_s
  failed = TestQueue.run(files, at_once)
  puts format("rake test: %d files, %d at a time, %.0f s", files.size, [at_once, files.size].min,
              TestQueue.monotonic_s - started)
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
