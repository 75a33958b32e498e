# frozen_string_literal: true

require "test_helper"
require_relative "../../lib/rackbench/init/detection"

module Rackbench
  module Init
    # What init reads from an app's files, and what it says it could not.
    class DetectionTest < Minitest::Test
      def app(files) = Detection.new(write_files(files))

      def test_a_roda_apps_literal_routes_are_read_and_the_rest_is_named_as_not_read
        d = app("config.ru" => "require 'roda'\nclass App < Roda\n  route do |r|\n    r.root { 'hi' }\n    " \
                               "r.get \"items\" do\n      'x'\n    end\n  end\nend\nrun App.freeze.app\n")
        assert_equal "roda", d.framework
        assert_equal ["/", "/items"], d.paths
        assert_match(/only r.root and literal/, d.notes.join)
      end

      def test_a_plain_rack_app_gets_the_root_only_and_says_so
        d = app("config.ru" => "run ->(_env) { [200, {}, ['ok']] }\n")
        assert_equal "rack", d.framework
        assert_equal ["/"], d.paths
        assert_match(/no route table/, d.notes.join)
        assert_empty d.servers, "no Gemfile, no servers of its own"
      end

      def test_a_folder_without_a_config_ru_is_one_clear_error
        error = assert_raises(ConfigError) { Detection.new(tmpdir) }
        assert_includes error.message, "no config.ru"
      end
    end
  end
end
