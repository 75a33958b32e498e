# frozen_string_literal: true

require "test_helper"
require "open3"
require "json"

module Rackbench
  # `rackbench run` examines the suite, app and machine first (rackbench
  # doctor), says what it found before the run starts, stores it with the
  # run, and the report shows it; --no-doctor skips all of that.
  class DoctorRunTest < Minitest::Test
    include TestHelpers

    BIN = File.join(ROOT, "bin", "rackbench")

    # pin: false is a finding on any machine.
    def unpinned_suite
      write_suite("engine" => "native", "duration_s" => 0.5, "pin" => false,
                  "servers" => [{ "server" => "webrick" }])
    end

    def rackbench(*args)
      out, err, status = Open3.capture3(BIN, *args)
      assert_nothing_left(status.pid)
      [status.exitstatus, out, err]
    end

    def test_run_says_doctors_findings_first_stores_them_and_the_report_shows_them
      status, out, err = rackbench("run", "--results", tmpdir, unpinned_suite)

      assert_equal 0, status, err
      assert_match(/warning: pinning is off.*\n    where: .*suite.yml:\d+ pin\n/, err)
      assert_match(/^Doctor: pinning is off/, out)
      store = Store.new(tmpdir)
      found = store.run["machine"]["doctor"].map { |f| f["check"] }
      store.close

      assert_includes found, "shared_cpus"
    end

    def test_no_doctor_skips_the_examination
      status, out, err = rackbench("run", "--no-doctor", "--results", tmpdir, unpinned_suite)

      assert_equal 0, status, err
      refute_match(/pinning is off/, err + out)
      store = Store.new(tmpdir)

      refute store.run["machine"].key?("doctor")
      store.close
    end
  end
end
