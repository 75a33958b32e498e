# frozen_string_literal: true

require "test_helper"

module Rackbench
  # `rackbench tune`'s input: every bad option or combination is one line
  # naming it, exit 2, before anything starts (test/tune/tune_command_test.rb
  # runs a real search).
  class CliTuneTest < Minitest::Test
    def tune(*argv) = run_cli("tune", "--results", tmpdir, *argv)

    def assert_refused(message, *argv)
      status, out, err = tune(*argv)
      assert_equal 2, status, "#{out}#{err}"
      assert_includes err, message
      assert_empty out, "nothing starts"
    end

    def test_it_needs_a_workload_and_an_slo
      assert_refused "tune needs --endpoint PATH (e.g. --endpoint /sleep/50), --mix, or a suite file", "--slo", "p99<=100ms"
      assert_refused "tune needs --slo (e.g. --slo 'p99<=100ms')", "--endpoint", "/hello"
      assert_refused "tune takes --endpoint or --mix, not both", "--endpoint", "/hello", "--mix", "/a=1", "--slo", "p99<=1s"
    end

    def test_each_unreadable_value_is_named_with_what_to_write
      assert_refused '--memory: cannot read "lots"; write e.g. 512MB or 2GB', "--memory", "lots"
      assert_refused "--budget must be more than 0", "--budget", "0"
      assert_refused "--workers: want a list of whole numbers like 1,2,4", "--workers", "1,two"
      assert_refused '--mix: "/a=0" has weight 0', "--mix", "/a=0"
      assert_refused "--slo: cannot read", "--slo", "fast please"
    end
  end
end
