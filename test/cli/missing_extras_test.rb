# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

module Rackbench
  # A suite that names a server this machine lacks says so before anything
  # starts, with the command that installs it; the other servers are measured.
  class MissingExtrasTest < Minitest::Test
    def test_a_missing_server_is_named_with_its_bin_setup_command_first_and_the_rest_still_runs
      suite = write_suite("duration_s" => 0.3, "servers" => [{ "server" => "itsi" }, { "server" => "puma", "threads" => 2 }])
      # As on a machine where `bin/setup itsi` never ran.
      status, out, err = Servers.fetch("itsi").stub(:gem_spec, nil) do
        run_cli("run", "--results", tmpdir, "--no-doctor", suite)
      end
      assert_equal 3, status, "#{out}\n#{err}"
      assert_match %r{\Arackbench: cannot run here, its cells will fail: itsi: itsi-server \S+ is not installed in vendor/itsi },
                   err
      assert_includes err.lines.first, "(`bin/setup itsi` runs:"
      store = Store.new(tmpdir)
      assert_equal(%w[failed ok], store.cells(store.run["id"]).map { |c| c["status"] })
    ensure
      store&.close
    end
  end
end
