# frozen_string_literal: true

require "test_helper"
require_relative "../results/measurement_builds"

module Rackbench
  class RunCommandTest < Minitest::Test
    # A seed-like suite whose claim rests on more server CPUs than any
    # machine here has: `run` says it cannot be settled before any server
    # starts, and the report after the run answers "cannot show here".
    def test_a_claim_needing_more_cpus_than_the_server_gets_is_named_before_the_run_starts
      claims = [{ "says" => "x2 beats x1 on the article's 64 hardware threads", "needs_cpus" => 64,
                  "a" => { "server" => "puma", "workers" => 2 }, "b" => { "server" => "puma", "workers" => 1 } }]
      suite = write_suite("engine" => "native", "duration_s" => 0.5, "concurrency" => [2],
                          "servers" => [{ "server" => "puma", "workers" => 2 }, { "server" => "puma", "workers" => 1 }],
                          "article" => { "title" => "A 64-thread article", "claims" => claims })
      status, out, err = run_cli("run", suite, "--results", File.join(tmpdir, "results"), "--no-doctor")
      assert_equal 0, status, "#{out}\n#{err}"
      before = "rackbench: cannot settle here: x2 beats x1 on the article's 64 hardware threads: cannot show here, " \
               "a difference needs 64 CPUs for the server and it had"
      assert_includes out, before
      assert_operator out.index(before), :<, out.index("rackbench: run 1"), "said before the run started:\n#{out}"
      answered = /^- x2 beats x1 on the article's 64 hardware threads: cannot show here, a difference needs 64 CPUs .*measured: /
      assert_match answered, out
      assert_nothing_left
    end

    # A real small run (one puma, two cells of two windows, its progress
    # drawn live as on a terminal): the store builds each finished cell's
    # Measurement once, the progress lines and the report after the run use
    # that one, and `report` later builds it once, in every format.
    def test_a_run_builds_each_cells_measurement_once_and_so_does_its_report
      suite = write_suite("engine" => "native", "duration_s" => 0.3, "concurrency" => [1, 2], "repeats" => 2)
      results = File.join(tmpdir, "results")
      terminal = StringIO.new.tap { |io| io.define_singleton_method(:tty?) { true } }
      status = nil
      builds = MeasurementBuilds.during do
        status = CLI.start(["run", suite, "--results", results, "--no-doctor"], out: terminal, err: StringIO.new)
      end
      assert_equal 0, status, terminal.string
      assert_match(%r{cell 2/2 .*: start 1/1, 2 windows}, terminal.string, "the live line was drawn")
      assert_equal({ 1 => 1, 2 => 1 }, builds)
      Reports.names.each do |format|
        status = nil
        builds = MeasurementBuilds.during do
          status, = run_cli("report", "--results", results, "--format", format, "--output", File::NULL)
        end
        assert_equal [0, { 1 => 1, 2 => 1 }], [status, builds], "report --format #{format}"
      end
      assert_nothing_left
    end
  end
end
