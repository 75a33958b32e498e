# frozen_string_literal: true

require "test_helper"
require "minitest/mock"
require "rackbench/targets/servers/jruby/class_archive"

module Rackbench
  module Servers
    # The class-data archive a quick start maps: named in its env where the
    # file is, absent where it is not (the JVM then starts without it). That a
    # quick-started JVM maps the one bin/setup built is test/targets/servers/jruby_test.rb's.
    class ClassArchiveTest < Minitest::Test
      def test_a_quick_start_is_told_of_the_archive_only_where_there_is_one
        path = File.join(tmpdir, "jruby.jsa")
        ClassArchive.stub(:path, path) do
          assert_equal({}, ClassArchive.env)
          File.write(path, "")
          assert_equal({ "JRUBY_JSA" => path }, ClassArchive.env)
        end
      end

      def test_the_archive_is_read_where_bin_setup_links_it
        link = File.dirname(ClassArchive.path).delete_prefix("#{ROOT}/")
        assert_includes File.read(File.join(ROOT, "bin", "setup")), "cached #{link} . #{File.basename(ClassArchive.path)} "
      end
    end
  end
end
