# frozen_string_literal: true

require "test_helper"

# Servers that cannot run here say why, precisely, instead of crashing or
# vanishing from the list; a suite that names one gets a failed cell.
class UnavailableServersTest < Minitest::Test
  def test_a_jruby_server_whose_gems_are_missing_names_the_install_command
    klass = Class.new(Rackbench::Servers.fetch("trinidad")) { def self.gem_home = "/nonexistent/vendor/jruby/trinidad" }
    assert_match %r{gem trinidad is not installed for JRuby in vendor/jruby/trinidad }, klass.unavailable_reason
    assert_match %r{\(`bin/setup trinidad` runs: jruby -S gem install}, klass.unavailable_reason
  end

  def test_mongrel_without_its_vendored_build_explains_why_1_1_5_cannot_be_built
    klass = Class.new(Rackbench::Servers.fetch("mongrel")) { def self.gem_spec = nil }
    assert_match(/fastthread extension calls Config::CONFIG, removed from Ruby/, klass.unavailable_reason)
  end

  def test_passenger_threads_need_the_enterprise_edition
    error = assert_raises(Rackbench::ConfigError) do
      Rackbench::Servers.fetch("passenger").new("server" => "passenger", "concurrency_model" => "thread").validate!
    end
    assert_match(/needs Passenger Enterprise/, error.message)
  end
end
