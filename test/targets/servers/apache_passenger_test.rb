# frozen_string_literal: true

require_relative "server_helper"

module Rackbench
  # Apache with mod_passenger serves an app wherever it was checked out: as
  # root its www-data workers cannot enter a mode-700 folder (a home, a
  # `mktemp -d`), so it serves with a DocumentRoot of its own instead, one it
  # never creates: nothing is left behind.
  class ApachePassengerTest < Minitest::Test
    include ServerTestHelpers

    def test_it_serves_an_app_inside_a_folder_closed_to_other_users
      closed = File.join(tmpdir, "closed").tap { |d| FileUtils.mkdir_p(d) }
      File.chmod(0o700, closed)
      FileUtils.cp_r(File.join(ROOT, "apps"), closed)
      assert_serves_hello({ "server" => "apache_passenger", "workers" => 1 },
                          app: File.join(closed, "apps", "rack", "config.ru"))
    end

    def test_its_own_document_root_lies_outside_the_closed_folder_and_is_never_made
      skip "only root's Apache serves from other users' workers" unless Process.euid.zero?

      closed = File.join(tmpdir, "closed").tap { |d| FileUtils.mkdir_p(d) }
      File.chmod(0o700, closed)
      FileUtils.cp_r(File.join(ROOT, "apps"), closed)
      deploy({ "server" => "apache_passenger", "workers" => 1 }, app: File.join(closed, "apps", "rack", "config.ru"))
      document_root = File.read(File.join(tmpdir, "apache2.conf"))[/DocumentRoot "([^"]+)"/, 1]
      refute document_root.start_with?(closed), "the DocumentRoot lies outside the closed folder"
      status, _headers, body = Readiness.get(@deployment.target("/hello"))
      assert_equal [200, "hello world"], [status, body]
      refute File.exist?(document_root), "#{document_root} is never made, so never left behind"
    end
  end
end
