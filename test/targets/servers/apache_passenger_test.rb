# frozen_string_literal: true

require_relative "server_helper"

module Rackbench
  # Apache with mod_passenger serves an app wherever it was checked out: as
  # root its www-data workers cannot enter a mode-700 folder (a home, a
  # `mktemp -d`), so it serves from an empty DocumentRoot of its own instead.
  class ApachePassengerTest < Minitest::Test
    include ServerTestHelpers

    def test_it_serves_an_app_inside_a_folder_closed_to_other_users
      closed = File.join(tmpdir, "closed").tap { |d| FileUtils.mkdir_p(d) }
      File.chmod(0o700, closed)
      FileUtils.cp_r(File.join(ROOT, "apps"), closed)
      assert_serves_hello({ "server" => "apache_passenger", "workers" => 1 },
                          app: File.join(closed, "apps", "rack", "config.ru"))
    end

    def test_its_own_document_root_is_removed_when_it_stops
      skip "only root's Apache serves from other users' workers" unless Process.euid.zero?

      closed = File.join(tmpdir, "closed").tap { |d| FileUtils.mkdir_p(d) }
      File.chmod(0o700, closed)
      FileUtils.cp_r(File.join(ROOT, "apps"), closed)
      deploy({ "server" => "apache_passenger", "workers" => 1 }, app: File.join(closed, "apps", "rack", "config.ru"))
      document_root = File.read(File.join(tmpdir, "apache2.conf"))[/DocumentRoot "([^"]+)"/, 1]
      refute document_root.start_with?(closed), "the DocumentRoot lies outside the closed folder"
      assert File.directory?(document_root)
      @deployment.stop
      refute File.exist?(document_root), "#{document_root} is removed with the deployment"
    end
  end
end
