# frozen_string_literal: true

require "test_helper"
require "open3"
require "rubygems/package"
require "rackbench/targets/servers/jruby/class_file"

module Rackbench
  module Servers
    # bin/setup's rename, run with Debian's jruby on torquebox-web's jars as
    # RubyGems ships them (unpacked from the .gem bin/setup downloaded). In
    # JRuby's quick start, with the class-data archive (JRubyBase::QUICK_START,
    # ClassArchive): flags of the JVM's compilers and collector, so the same
    # bytes out, in about 7 CPU s a run where bin/setup's plain jruby took 12.
    class TorqueboxPatchTest < Minitest::Test
      TORQUEBOX = Servers.fetch("torquebox")
      GEM_FILE = File.join(TORQUEBOX.gem_home, "cache", "torquebox-web-#{TORQUEBOX::PINNED}-java.gem")
      CLASS = "org/projectodd/wunderboss/rack/RackEnvironmentHash"

      def setup
        assert File.exist?(GEM_FILE), "bin/setup installs torquebox-web (its .gem stays in the cache)"
        Gem::Package.new(GEM_FILE).extract_files(File.join(tmpdir, "gems", "torquebox-web-#{TORQUEBOX::PINNED}-java"))
      end

      def patch
        env = { "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil, "RUBYLIB" => nil, "GEM_HOME" => nil, "GEM_PATH" => nil,
                **ClassArchive.env }
        out, status = Open3.capture2e(env, "jruby", *JRubyBase::QUICK_START, TORQUEBOX::PATCH, tmpdir)
        assert status.success?, out
        out.lines.map(&:chomp)
      end

      def rack_env_class
        jar = Dir[File.join(tmpdir, "gems", "*", "lib", "wunderboss-rack.jar")].first
        out, status = Open3.capture2("unzip", "-p", jar, "#{CLASS}.class", binmode: true)
        assert status.success?
        JavaClassFile.new(out)
      end

      def test_it_renames_the_rack_envs_overrides_of_jrubys_final_methods_once
        before = rack_env_class.method_infos.map(&:name)
        lines = patch
        refute_empty lines
        # keys() is the override the JVM named when it refused the class (IncompatibleClassChangeError).
        renamed = lines.map { |l| l[/#{CLASS}\.(\w+)\(/o, 1] }
        assert(lines.all? { |l| l.start_with?("wunderboss-rack.jar #{CLASS}.") }, lines.inspect)
        assert_includes renamed, "keys"
        assert_equal before.map { |n| renamed.include?(n) ? "#{n}$rackbench" : n }, rack_env_class.method_infos.map(&:name)
        assert_equal lines.join("\n"), File.read(File.join(tmpdir, "rackbench-patched.txt")).lines.drop(1).join.chomp

        jar = Dir[File.join(tmpdir, "gems", "*", "lib", "wunderboss-rack.jar")].first
        bytes = File.binread(jar)
        assert_equal lines.map { |l| "#{l} (before)" }, patch, "a second run finds them renamed"
        assert_equal bytes, File.binread(jar), "and leaves the jar alone"
      end
    end
  end
end
