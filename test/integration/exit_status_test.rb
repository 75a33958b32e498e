# frozen_string_literal: true

require "test_helper"
require "open3"

module Rackbench
  # `rackbench run` as a script sees it: 0 every cell measured, 3 some cell
  # failed, 2 bad input, 4 the run could not proceed (a service it needs, the
  # results folder), each with one clear message and nothing left running.
  class ExitStatusTest < Minitest::Test
    BIN = File.join(ROOT, "bin", "rackbench")

    def rackbench(*args)
      out, err, status = Open3.capture3(BIN, *args)
      assert_nothing_left(status.pid)
      [status.exitstatus, out, err]
    end

    def small_suite(extra = {})
      write_suite({ "engine" => "native", "duration_s" => 0.5 }.merge(extra))
    end

    def test_a_failed_cell_is_3_and_its_reason_is_in_the_report
      suite = small_suite("endpoints" => [{ "path" => "/hello", "expect_body" => "goodbye" }])
      status, out, err = rackbench("run", "--results", tmpdir, suite)
      assert_equal 3, status, err
      assert_includes out, 'body does not contain "goodbye"'
    end

    def test_a_service_that_fails_to_start_is_4_with_its_own_words_not_bad_input
      skip "postgres is not installed (`bin/setup postgres` installs it)" if Services.fetch("postgres").unavailable_reason
      suite = small_suite("services" => [{ "service" => "postgres", "settings" => { "shared_buffers" => "lots" } }])
      status, _out, err = rackbench("run", "--results", tmpdir, suite)
      assert_equal 4, status, err
      assert_match(/^rackbench: postgres exited before it was ready/, err)
      assert_match(/invalid value for parameter "shared_buffers": "lots"/, err)
    end

    def test_bad_input_is_2_before_the_results_folder_is_looked_at
      suite = small_suite("duration_s" => "long")
      status, out, err = rackbench("run", "--results", File.join(tmpdir, "never-made"), suite)
      assert_equal 2, status
      assert_empty out
      assert_match(/duration_s/, err)
      refute File.exist?(File.join(tmpdir, "never-made"))
    end

    # Each in a mount namespace of its own: a tmpfs only this test sees.
    def in_own_mount(mount_options, prepare, *args)
      skip "needs unshare --mount (root)" unless system("unshare", "--mount", "true", err: File::NULL)
      results = File.join(tmpdir, "results")
      FileUtils.mkdir_p(results)
      script = %(mount -t tmpfs -o #{mount_options} tmpfs "$1" && #{prepare} exec "$0" run --results "$1" "$2")
      out, err, status = Open3.capture3("unshare", "--mount", "sh", "-c", script, BIN, results, small_suite, *args)
      [status.exitstatus, out, err, results]
    end

    def test_a_read_only_results_folder_is_4_and_one_line_before_anything_starts
      status, out, err, results = in_own_mount("ro,size=1m", "")
      assert_equal 4, status, err
      assert_empty out
      assert_equal ["rackbench: results folder #{results}: Read-only file system; choose another with --results DIR\n"],
                   err.lines
    end

    def test_a_full_results_folder_is_4_and_one_line_before_anything_starts
      status, out, err, results = in_own_mount("size=256k", %(dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null;))
      assert_equal 4, status, err
      assert_empty out
      assert_equal ["rackbench: results folder #{results}: No space left on device; choose another with --results DIR\n"],
                   err.lines
    end
  end
end
