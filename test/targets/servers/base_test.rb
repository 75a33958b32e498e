# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Servers
    # What every server adapter shares: its label, its checks before anything
    # starts, its facts, and where its gem comes from.
    class BaseTest < Minitest::Test
      def puma(config = {}) = Servers.fetch("puma").new({ "server" => "puma" }.merge(config))

      def test_a_label_is_the_servers_name_and_its_knobs_unless_the_entry_names_it
        assert_equal "puma x2:8", puma("workers" => 2, "threads" => 8).label
        assert_equal "mine", puma("label" => "mine").label
      end

      def test_a_second_instance_needs_a_proxy_and_says_which_key_is_wrong
        error = assert_raises(ConfigError) { puma("instances" => 2).validate! }
        assert_equal "instances", error.key
        assert_match(/"instances" > 1 needs a "proxy"/, error.message)
        assert puma("instances" => 2, "proxy" => { "proxy" => "nginx" }).validate!
      end

      def test_env_must_map_names_to_scalars_and_setup_must_be_commands
        assert_equal "env", assert_raises(ConfigError) { puma("env" => { "A" => [1] }).validate! }.key
        assert_equal "setup", assert_raises(ConfigError) { puma("setup" => "bundle install").validate! }.key
        assert_equal({ "THREADS" => "4" }, puma("env" => { THREADS: 4 }).entry_env)
      end

      def test_yjit_is_true_or_false_and_adds_itself_to_rubyopt
        assert_equal "yjit", assert_raises(ConfigError) { puma("yjit" => "yes").validate! }.key
        assert_equal({ "RUBYOPT" => "-W0 --yjit" }, puma("yjit" => true).yjit_env({ "RUBYOPT" => "-W0" }))
        assert_equal({ "RUBYOPT" => "-W0" }, puma.yjit_env({ "RUBYOPT" => "-W0" }), "without yjit: true nothing changes")
      end

      def test_facts_are_inherited_and_a_subclass_adds_its_own
        assert_equal Servers.fetch("passenger").facts[:follows], Servers.fetch("apache_passenger").facts[:follows]
        assert_equal ["puma"], Servers.fetch("puma").facts[:gems], "the gem provenance keeps is the adapter's GEM"
        assert_equal [], Servers.fetch("command").facts[:gems]
      end

      # Itsi, Mongrel and the JRuby servers live in gem homes of vendor/: the newest of the gem's own specs wins.
      def test_the_vendored_gemspec_is_the_newest_of_that_gems_name
        home = File.join(tmpdir, "home")
        FileUtils.mkdir_p(File.join(home, "specifications"))
        { "mongrel" => %w[1.1.5 1.2.0.pre2], "mongrel_cluster" => %w[9.0] }.each do |name, versions|
          versions.each do |v|
            spec = Gem::Specification.new do |s|
              s.name = name
              s.version = v
              s.summary = "x"
              s.authors = ["x"]
              s.files = []
            end
            File.write(File.join(home, "specifications", "#{name}-#{v}.gemspec"), spec.to_ruby)
          end
        end
        mongrel = Servers.fetch("mongrel")
        assert_equal "1.2.0.pre2", mongrel.vendored_gem_spec(home).version.to_s
        assert_nil mongrel.vendored_gem_spec(File.join(tmpdir, "none"))
      end

      # Thruster (a proxy) ships a prebuilt gem per platform: only this machine's counts.
      def test_a_vendored_gemspec_can_be_asked_for_one_platform
        home = File.join(tmpdir, "thruster")
        FileUtils.mkdir_p(File.join(home, "specifications"))
        { "0.1.27" => "x86_64-linux", "0.1.28" => "arm64-darwin" }.each do |version, platform|
          spec = Gem::Specification.new do |s|
            s.name = "thruster"
            s.version = version
            s.platform = platform
            s.summary = "x"
            s.authors = ["x"]
          end
          File.write(File.join(home, "specifications", "#{spec.full_name}.gemspec"), spec.to_ruby)
        end
        found = Base.vendored_gem_spec(home, "thruster", platform: "x86_64-linux")
        assert_equal "thruster-0.1.27-x86_64-linux", found.full_name
        assert_equal "0.1.28", Base.vendored_gem_spec(home, "thruster").version.to_s, "any platform: the newest"
      end
    end
  end
end
