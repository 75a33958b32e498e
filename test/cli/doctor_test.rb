# frozen_string_literal: true

require "test_helper"
require "stringio"
require "json"

module Rackbench
  # `rackbench doctor` on the fixture apps: findings with where and fix, and
  # an exit status that says whether one is a warning.
  class DoctorCommandTest < Minitest::Test
    include TestHelpers

    FIXTURES = File.expand_path("../fixtures/doctor", __dir__)

    def doctor(*args)
      out = StringIO.new
      err = StringIO.new
      status = CLI.start(["doctor", *args, "--results", tmpdir], out: out, err: err)
      [status, out.string, err.string]
    end

    def test_a_development_app_exits_1_with_its_finding_where_and_fix
      status, out, = doctor(File.join(FIXTURES, "development"))

      assert_equal 1, status
      assert_match(%r{warning: the app runs in development.*\n    where: config/puma.rb:5\n    fix: }, out)
    end

    def test_json_lists_the_findings_as_data
      _, out, = doctor(File.join(FIXTURES, "rails_pool"), "--json")
      found = JSON.parse(out).find { |f| f["check"] == "database_pool" }

      assert_equal "config/database.yml:3", found["where"]
    end

    def test_a_folder_without_an_app_is_one_clear_error
      status, _, err = doctor(tmpdir)

      assert_equal 2, status
      assert_match(/no config.ru and no rackbench.yml/, err)
    end
  end
end
