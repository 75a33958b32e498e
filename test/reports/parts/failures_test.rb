# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"

module Rackbench
  module Reports
    # A server that could not start fails every cell with one reason: the
    # report states it once, for every config it concerns, in every format.
    class FailuresTest < Minitest::Test
      include SeedFixtures

      def torquebox(label, endpoint, pid)
        cell(label, { "server" => "torquebox" }, endpoint: endpoint, status: "failed",
                                                 reason: "torquebox exited before it was ready (pid #{pid})\nits log:\n...")
      end

      def cells
        [cell("puma", { "server" => "puma" }), torquebox("torquebox", "hello", 101), torquebox("torquebox x4", "hello", 202),
         torquebox("torquebox", "sleep", 303), torquebox("torquebox x4", "sleep", 404)]
      end

      def test_one_failure_per_server_and_reason_whatever_the_pids_and_configs
        failures = Failures.new(cells).to_a
        assert_equal 1, failures.size
        failure = failures.first
        assert_equal ["torquebox", ["torquebox", "torquebox x4"]], [failure.server, failure.labels]
        assert_equal "torquebox (4 cells, 2 configs)", failure.where
        assert_equal "FAILED torquebox (4 cells, 2 configs): torquebox exited before it was ready (pid)", failure.line
      end

      def test_the_section_lists_the_lines_and_keeps_the_whole_reasons_in_its_data
        section = Failures.new(cells).section
        assert_equal "failures", section.id
        assert_equal [Failures.new(cells).first.line], section.parts.first.lines
        assert_equal "torquebox exited before it was ready (pid)\nits log:\n...", section.data.first["reason"]
        assert_equal ["hello c=10", "hello c=10", "sleep c=10", "sleep c=10"], section.data.first["cells"]
      end

      def test_no_section_when_every_cell_was_measured
        assert_nil Failures.new([cell("puma", { "server" => "puma" })]).section
      end

      def test_a_reason_reads_the_same_whatever_pid_and_loopback_port_it_had
        reason = "thin not ready after 30s (last: Connection refused - connect(2) for 127.0.0.1:35297); " \
                 "#<Process::Status: pid 4242 exit 1>"
        assert_equal "thin not ready after 30s (last: Connection refused - connect(2) for 127.0.0.1:PORT); exit 1",
                     Failures.normalize(reason)
      end

      def test_notes_give_a_reason_the_first_time_and_point_back_after
        notes = Failures::Notes.new
        first, second = cells.drop(1).first(2)
        assert_equal "not measured: torquebox exited before it was ready (pid)", notes.text(first)
        assert_equal "not measured (reason above)", notes.text(second)
      end
    end
  end
end
