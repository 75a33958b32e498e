# frozen_string_literal: true

require "test_helper"
require "open3"
require "json"

module Rackbench
  # bin/rackbench run, as a user runs it: real servers, the real load engine, a real store.
  # One smoke run of the quick suite a file, which both tests read: the
  # first its output and json, the second the stored run rendered again.
  # The reports of the stored run go through the command line's code in this
  # process (CLI.start): what is checked is what they render, and a
  # bin/rackbench process each would load rackbench three times more.
  class QuickSuiteTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")
    LABELS = ["puma x0:16", "unicorn x4", "thin"].freeze

    class << self
      attr_accessor :smoke_run, :stored_json
    end

    # The stored run's json report, rendered once a file (CLI.start).
    def stored_json(results)
      self.class.stored_json ||= begin
        status, out, err = run_cli("report", "--results", results, "--format", "json")
        assert_equal 0, status, err
        JSON.parse(out)
      end
    end

    # [results folder, stdout, stderr, status] of `rackbench run --smoke`, made once a file.
    def smoke_run
      self.class.smoke_run ||= begin
        results = Dir.mktmpdir("rackbench-quick-suite")
        Minitest.after_run { FileUtils.rm_rf(results) }
        [results, *Open3.capture3(BIN, "run", "--smoke", "--results", results)]
      end
    end

    def test_the_quick_suite_in_smoke_mode_measures_every_server_with_no_errors_on_hello
      results, out, err, status = smoke_run
      assert status.success?, "rackbench run failed:\n#{out}\n#{err}"
      hello_table = out[%r{^/hello\n(.*?)\n\n}m, 1]
      assert_equal(LABELS, hello_table.lines.drop(2).map { |l| l[/\A\S+(?: x[\d:]+)?/] })
      assert_match(/server on CPU \d+, load on CPU \d+/, out)

      hello = stored_json(results)["cells"].select { |c| c["path"] == "/hello" }
      assert_equal(LABELS, hello.map { |c| c["label"] })
      hello.each do |cell|
        assert_operator cell["requests_per_s"], :>, 0, cell["label"]
        # at most one in a thousand: puma 8.0.2 now and then sends a response
        # without its first lines, which the engine rightly counts as malformed
        assert_operator cell["errors"], :<=, cell["attempted"] / 1000, "no errors to speak of on /hello for #{cell["label"]}"
        assert_equal "PSS", cell["memory_kind"], cell["label"]
        assert_operator cell["memory_bytes"], :>, 1_000_000, "memory of #{cell["label"]} was sampled"
      end
      assert_nothing_left(status.pid)
    end

    def test_report_renders_a_stored_run_again_in_every_format
      results, out, err, status = smoke_run
      assert status.success?, "rackbench run failed:\n#{out}\n#{err}"
      table_status, table, table_err = run_cli("report", "--results", results)
      assert_equal 0, table_status, table_err
      assert_match(/^puma x0:16\s+4\s+[\d.]+/, table)
      json = stored_json(results)
      cell = json["cells"].first
      assert_includes cell["server_command"].flatten.join(" "), "--threads 16:16"
      assert_operator cell["repeats"].first["result"]["requests"], :>, 0
      assert_equal "finished", json["run"]["status"]
    end
  end
end
