# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # `rackbench run --explain` then `rackbench explain`: the stored run's
  # latency split and its capacity, and nothing else of the report.
  class ExplainCommandTest < Minitest::Test
    include TestHelpers

    BIN = File.join(ROOT, "bin", "rackbench")

    def rackbench(*args)
      out, err, status = Open3.capture3(BIN, *args)
      assert_nothing_left(status.pid)
      [status.exitstatus, out, err]
    end

    def test_explain_prints_the_why_and_capacity_sections_of_a_run_made_with_explain
      suite = write_suite("engine" => "native", "duration_s" => 0.5, "servers" => [{ "server" => "puma", "threads" => 2 }])
      status, _, err = rackbench("run", suite, "--explain", "--no-doctor", "--results", tmpdir)
      assert_equal 0, status, err

      status, out, err = rackbench("explain", "--results", tmpdir, "--memory", "1GB")

      assert_equal 0, status, err
      assert_match(/^Why: latency inside the server, split\n/, out)
      assert_match(/^puma x0:2 +2 +[\d.]+ = [\d.]+ \+ [\d.]+ \+ [\d.]+ /, out)
      assert_match(/^Capacity\n.*workers in 1024 MB/, out)
      refute_match(%r{Throughput req/s}, out)
    end
  end
end
