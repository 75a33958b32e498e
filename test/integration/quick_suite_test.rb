# frozen_string_literal: true

require "test_helper"
require "open3"
require "json"

module Rackbench
  # bin/rackbench run, as a user runs it: real servers, real wrk, a real store.
  class QuickSuiteTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")

    def test_the_quick_suite_in_smoke_mode_measures_every_server_with_no_errors_on_hello
      out, err, status = Open3.capture3(BIN, "run", "--smoke", "--results", tmpdir)
      assert status.success?, "rackbench run failed:\n#{out}\n#{err}"
      hello = out[%r{^/hello\n(.*?)\n\n}m, 1]
      rows = hello.lines.drop(2).map(&:split)
      assert_equal %w[puma puma unicorn thin webrick], rows.map(&:first)
      rows.each do |row|
        assert_operator row[3].to_f, :>, 0, "req/s of #{row.first}"
        assert_match(%r{\A0/\d+\z}, row[6], "no errors on /hello for #{row.first}")
      end
      assert_match(/server on CPU \d+, load on CPU \d+/, out)
      assert_nothing_left(status.pid)
    end

    def test_report_renders_a_stored_run_again_in_every_format
      Open3.capture3(BIN, "run", "--smoke", "--concurrency", "2", "--results", tmpdir, write_suite)
      table, = Open3.capture3(BIN, "report", "--results", tmpdir)
      assert_match(/^puma x0:2\s+2\s+[\d.]+/, table)
      json, = Open3.capture3(BIN, "report", "--results", tmpdir, "--format", "json")
      cell = JSON.parse(json)["cells"].first
      assert_includes cell["server_command"].flatten.join(" "), "--threads 2:2"
      assert_operator cell["result"]["requests"], :>, 0
      assert_equal "finished", JSON.parse(json)["run"]["status"]
    end
  end
end
