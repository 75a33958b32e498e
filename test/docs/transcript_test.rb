# frozen_string_literal: true

require "test_helper"
require_relative "../../rakelib/docs/transcript"

module Rackbench
  module Docs
    # A command's output kept for a page: recorded once, rendered as a shell
    # session with the folder it ran in made relative.
    class TranscriptTest < Minitest::Test
      SCRIPT = "puts \"results in \#{Dir.pwd}/runs/1\"; exit 1"
      FOLDER_SCRIPT = "puts \"bundle install in \#{Dir.pwd} adds it; wrote \#{Dir.pwd}/rackbench.yml\""

      def test_a_recorded_command_renders_as_a_session_with_its_exit_status_and_no_path_of_this_machine
        Transcript.record(tmpdir, ["ruby", "-e", SCRIPT], shown: "rackbench ab old new", tolerated: [1])
        kept = Transcript.load(tmpdir)
        assert_equal "```text\n$ rackbench ab old new\nresults in runs/1\n$ echo $?\n1\n```", kept.markdown(status: true)
        assert_match(/\A\d+\.\d, \d+\.\d, \d+\.\d\z/, kept.loadavg_text)
      end

      def test_the_folder_it_ran_in_becomes_a_dot_and_the_paths_under_it_relative
        Transcript.record(tmpdir, ["ruby", "-e", FOLDER_SCRIPT], shown: "rackbench init")
        assert_equal "```text\n$ rackbench init\nbundle install in . adds it; wrote rackbench.yml\n```",
                     Transcript.load(tmpdir).markdown
      end

      def test_an_exit_status_not_tolerated_fails_the_task_and_keeps_nothing
        error = assert_raises(RuntimeError) { Transcript.record(tmpdir, ["ruby", "-e", SCRIPT], shown: "x") }
        assert_match(/exited 1:\nresults in /, error.message)
        refute File.exist?(File.join(tmpdir, Transcript::FILE))
      end
    end
  end
end
