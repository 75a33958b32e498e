# frozen_string_literal: true

require "rbconfig"
require "tmpdir"

# `rake test` spreads the test files over RACKBENCH_TEST_SHARDS processes
# (default 2) that run at once: most tests wait on real servers, so two
# processes halve the wall time on two cores. Each process is its own
# supervisor (tests find their leftovers by their own pid), so shards cannot
# see each other's processes. RACKBENCH_TEST_SHARDS=1 runs one process;
# TEST=path runs one file.
module TestShards
  # Rough cost of a file by folder, to balance the shards (greedy, heaviest first).
  WEIGHTS = { "test/suites/" => 60, "test/targets/servers/jruby" => 60, "test/integration/" => 30, "test/cli/" => 20,
              "test/targets/servers/" => 20, "test/targets/proxies/" => 15, "test/targets/apps/" => 15, "test/reports/html" => 15,
              "test/targets/services/" => 10, "test/engine/" => 10, "test/hosts/" => 15 }.freeze

  module_function

  def weight(file) = WEIGHTS.find { |prefix, _| file.start_with?(prefix) }&.last || 1

  def split(files, count)
    shards = Array.new(count) { [] }
    loads = Array.new(count, 0)
    files.sort_by { |f| [-weight(f), f] }.each do |file|
      i = loads.index(loads.min)
      shards[i] << file
      loads[i] += weight(file)
    end
    shards.reject(&:empty?)
  end

  # Runs each shard in its own ruby (warnings on); prints each shard's output
  # as it ends; true when every shard passed.
  def run(shards)
    loader = 'files = ARGV.shift(ARGV.index("--")); ARGV.shift; files.each { |f| require File.expand_path(f) }'
    Dir.mktmpdir("rackbench-shards") do |dir|
      running = shards.each_with_index.to_h do |files, i|
        log = File.join(dir, "shard-#{i + 1}.log")
        pid = Process.spawn(RbConfig.ruby, "-w", "-Ilib", "-Itest", "-e", loader, *files, "--",
                            out: log, err: %i[child out])
        [pid, [i + 1, files.size, log]]
      end
      ok = true
      until running.empty?
        pid, status = Process.wait2
        shard, count, log = running.delete(pid)
        puts "== test shard #{shard} of #{shards.size} (#{count} files): #{status.success? ? "passed" : "FAILED"}"
        puts File.read(log)
        ok &&= status.success?
      end
      ok
    end
  end
end

desc "Run the tests (RACKBENCH_TEST_SHARDS processes at once, default 2; TEST=file for one file)"
task test: :compile do
  files = ENV["TEST"] ? [ENV["TEST"]] : Dir["test/**/*_test.rb"]
  count = Integer(ENV.fetch("RACKBENCH_TEST_SHARDS", "2"))
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  ok = TestShards.run(TestShards.split(files, count))
  puts format("rake test: %d files in %d shards, %.0f s", files.size, [count, files.size].min,
              Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
  abort "rake test: a shard failed (its output is above)" unless ok
end
