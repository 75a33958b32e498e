# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The one line said when a real process exits or never gets ready.
  class ExitReasonTest < Minitest::Test
    def setup
      @supervisor = Supervisor.new
    end

    def teardown
      @supervisor.stop_all
      super
    end

    def finished(code, name: "puma")
      dir = File.join(tmpdir, "runs", "3", "01-puma", "d1").tap { |d| FileUtils.mkdir_p(d) }
      child = @supervisor.spawn([RbConfig.ruby, "-e", code], name: name, log_path: File.join(dir, "server.log"),
                                                             chdir: tmpdir)
      wait_until(message: "#{name} to end") { !child.alive? }
      child
    end

    def test_an_exit_on_a_missing_variable_names_it_at_its_line_with_the_log_relative_to_the_results_folder
      File.write(File.join(tmpdir, "db.rb"), "POOL = ENV.fetch(\"MAX_THREADS\")\n")
      child = finished("require_relative File.join(Dir.pwd, 'db')")
      reason = ExitReason.new(child, app_dir: tmpdir, log_root: tmpdir).exited("before it was ready")
      assert_equal 'puma exited before it was ready (exit 1): db.rb:1: key not found: "MAX_THREADS" (KeyError); ' \
                   "log: runs/3/01-puma/d1/server.log", reason
    end

    def test_a_process_that_printed_nothing_says_so_and_how_it_ended
      reason = ExitReason.new(finished("exit 3"), log_root: tmpdir).exited("before it was ready")
      assert_equal "puma exited before it was ready (exit 3): it logged nothing; log: runs/3/01-puma/d1/server.log", reason
    end

    def test_a_signal_is_named
      reason = ExitReason.new(finished("Process.kill('KILL', Process.pid)")).exited("during the load")
      assert_match(%r{\Apuma exited during the load \(killed by SIGKILL\): it logged nothing; log: /.*server\.log\z}, reason)
    end

    def test_a_log_without_an_error_is_quoted_at_its_end
      reason = ExitReason.new(finished("puts 'bye'; exit 0"), log_root: tmpdir).exited("before it was ready")
      assert_equal 'puma exited before it was ready (exit 0): no error in its log, which ends: "bye"; ' \
                   "log: runs/3/01-puma/d1/server.log", reason
    end

    def test_a_command_that_failed_quotes_its_last_line_when_no_error_reads_like_one
      reason = ExitReason.new(finished("warn 'relation items'; warn 'no such table'; exit 4", name: "setup command"),
                              log_root: tmpdir)
      assert_equal "setup command failed (exit 4): no such table; log: runs/3/01-puma/d1/server.log", reason.failed
    end

    def test_a_server_not_ready_in_time_adds_its_error_when_its_log_has_one
      reason = ExitReason.new(finished("warn 'ERROR: cannot reach the database'"), log_root: tmpdir)
      assert_equal "puma not ready after 2s (last: Connection refused): ERROR: cannot reach the database; " \
                   "log: runs/3/01-puma/d1/server.log", reason.not_ready(2, "Connection refused")
    end
  end
end
