# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Hosts
    class PathMapTest < Minitest::Test
      def map = PathMap.new("/r/runs/7" => "/host/runs/m-1-7", "/src/app" => "/host/runs/m-1-7/apps/1/app")

      def test_a_path_in_a_mapped_folder_moves_with_it
        assert_equal "/host/runs/m-1-7/01-puma/d1/unicorn.rb", map.call("/r/runs/7/01-puma/d1/unicorn.rb")
        assert_equal "/host/runs/m-1-7", map.call("/r/runs/7")
      end

      def test_a_folder_whose_name_only_begins_the_same_is_not_moved
        assert_equal "/r/runs/70/x", map.call("/r/runs/70/x")
        assert_equal "/r/runs/7.old", map.call("/r/runs/7.old")
        assert_equal "/src/app-2/config.ru", map.call("/src/app-2/config.ru")
      end

      def test_paths_inside_generated_text_are_moved
        text = %(listen "/r/runs/7/d1/s.sock"\nrequire "/src/app/lib/x"; pid /r/runs/7/d1/nginx.pid;)
        assert_equal %(listen "/host/runs/m-1-7/d1/s.sock"\nrequire "/host/runs/m-1-7/apps/1/app/lib/x"; ) +
                     "pid /host/runs/m-1-7/d1/nginx.pid;", map.call(text)
      end

      def test_the_longest_folder_wins
        nested = PathMap.new("/r" => "/a", "/r/apps" => "/b")
        assert_equal "/b/x /a/y", nested.call("/r/apps/x /r/y")
      end

      def test_argv_env_and_other_paths
        assert_equal ["/usr/bin/ruby", "/host/runs/m-1-7/c.ru", "-p", "80"],
                     map.argv(["/usr/bin/ruby", "/r/runs/7/c.ru", "-p", 80])
        assert_equal({ "DB" => "/host/runs/m-1-7/app.sqlite3", "N" => "4" }, map.env("DB" => "/r/runs/7/app.sqlite3", "N" => 4))
        assert_equal "/var/lib/gems/puma", PathMap.new.call("/var/lib/gems/puma")
      end
    end
  end
end
