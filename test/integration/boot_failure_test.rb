# frozen_string_literal: true

require "test_helper"
require "socket"
require_relative "fixture_app_helper"

module Rackbench
  # A server that exits or never gets ready fails its cells with the app's own
  # error (the exception line at its file:line), then the log's path relative
  # to the results folder: never a Process::Status inspect.
  class BootFailureTest < Minitest::Test
    include FixtureAppHelper

    def run_suite(suite_path)
      store = Store.new(File.join(tmpdir, "results"))
      run_id = Runner.new(Suite.load(suite_path), store: store).run
      store.cells(run_id)
    ensure
      store&.close
    end

    def test_an_app_that_raises_at_boot_shows_the_exception_line_in_the_run_and_its_report
      app = fixture_app("boot_error")
      results = File.join(tmpdir, "results")
      suite = fixture_suite(app, "endpoints" => ["/"], "servers" => [{ "server" => "puma", "threads" => 2 }])
      status, out, pid = rackbench("run", suite, "--results", results)
      refute status.success?, out
      expected = "puma x0:2 exited before it was ready (exit 1): lib/settings.rb:5: config/settings.yml has no secret_key " \
                 "(copy config/settings.example.yml) (ArgumentError); log: runs/1/01-puma-x0-2/d1/server.log"
      assert_includes out, "FAILED: #{expected}"
      refute_includes out, "Process::Status"
      assert_equal expected, json_report(results)["cells"].first["reason"]
      assert File.file?(File.join(results, "runs", "1", "01-puma-x0-2", "d1", "server.log")), "the log is where it says"
      assert_nothing_left(pid)
    end

    def test_a_config_file_that_reads_a_missing_variable_names_it
      app = fixture_app("pooled")
      cells = run_suite(fixture_suite(app, "endpoints" => ["/health"], "env" => { "MAX_THREADS" => "2" },
                                           "servers" => [{ "server" => "puma", "threads" => 2 }]))
      assert_equal 'puma x0:2 exited before it was ready (exit 1): config/puma.rb:4: key not found: "WEB_CONCURRENCY" ' \
                   "(KeyError); log: runs/1/01-puma-x0-2/d1/server.log", cells.first["reason"]
      assert_nothing_left
    end

    def test_a_server_that_cannot_bind_says_the_address_is_in_use
      squatter = TCPServer.new("127.0.0.1", 0)
      cells = run_suite(write_suite("servers" => [{ "server" => "puma", "threads" => 2, "port" => squatter.addr[1] }]))
      assert_match(%r{\Apuma x0:2 exited before it was ready \(exit 1\): puma-[\d.]+/lib/puma/binder\.rb:\d+: Address already in use - bind\(2\) for "127\.0\.0\.1" port #{squatter.addr[1]} \(Errno::EADDRINUSE\); log: runs/1/01-puma-x0-2/d1/server\.log\z}, # rubocop:disable Layout/LineLength
                   cells.first["reason"])
      assert_nothing_left
    ensure
      squatter&.close
    end

    def test_a_server_that_exits_silently_says_it_logged_nothing
      cells = run_suite(write_suite("servers" => [{ "server" => "command", "label" => "silent",
                                                    "command" => "sh -c 'exit 3' {port}" }]))
      assert_equal "silent exited before it was ready (exit 3): it logged nothing; log: runs/1/01-silent/d1/server.log",
                   cells.first["reason"]
      assert_nothing_left
    end
  end
end
