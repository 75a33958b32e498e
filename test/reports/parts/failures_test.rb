# frozen_string_literal: true

require "test_helper"
require "rackbench/reports/parts/failures"

module Rackbench
  class FailuresTest < Minitest::Test
    def test_a_reason_reads_the_same_whatever_pid_and_loopback_port_it_had
      reason = "thin not ready after 30s (last: Connection refused - connect(2) for 127.0.0.1:35297); " \
               "#<Process::Status: pid 4242 exit 1>"
      assert_equal "thin not ready after 30s (last: Connection refused - connect(2) for 127.0.0.1:PORT); exit 1",
                   Reports::Failures.normalize(reason)
    end
  end
end
