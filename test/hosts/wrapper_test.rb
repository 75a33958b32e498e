# frozen_string_literal: true

require "test_helper"
require "English"

module Rackbench
  # The remote wrapper, run here through a local shell (as sshd would run it):
  # its command lives in a group of its own that ends when stdin closes.
  class WrapperTest < Minitest::Test
    def run_wrapped(argv, env: {}, chdir: "/")
      log = File.join(tmpdir, "wrapped.log")
      reader, writer = IO.pipe
      pid = Process.spawn("sh", "-c", Hosts::Wrapper.command(argv, env: env, chdir: chdir), in: reader, out: log,
                                                                                            err: %i[child out], pgroup: true)
      reader.close
      [pid, writer, log]
    end

    def test_closing_stdin_ends_the_command_and_everything_it_started
      pid, writer, log = run_wrapped(["sh", "-c", "sleep 300 & sleep 301"])
      group = wait_until(message: "the wrapper prints the group") { Hosts::Wrapper.remote_pid(File.read(log)) }
      wait_until(message: "both sleeps started") { members(group).size >= 3 }
      writer.close
      wait_until(timeout_s: 5, message: "the group ended") { members(group).empty? }
      Process.wait(pid)
      refute_predicate $CHILD_STATUS, :success?
    end

    def test_the_command_gets_its_env_and_folder_and_its_exit_status_comes_back
      pid, writer, log = run_wrapped(["sh", "-c", 'echo "$GREETING from $(pwd)"; exit 3'], env: { "GREETING" => "hi there" },
                                                                                           chdir: tmpdir)
      Process.wait(pid)
      writer.close
      assert_equal 3, $CHILD_STATUS.exitstatus
      assert_includes File.read(log), "hi there from #{tmpdir}"
    end

    def members(pgid)
      Procfs.process_stats.select { |stat| stat.pgrp == pgid }.map(&:pid)
    end
  end
end
