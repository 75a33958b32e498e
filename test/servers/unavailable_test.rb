# frozen_string_literal: true

require "test_helper"

# Servers that cannot run here say why, precisely, instead of crashing or
# vanishing from the list; a suite that names one gets a failed cell.
class UnavailableServersTest < Minitest::Test
  def test_torquebox_reports_that_jboss_as_7_needs_an_older_java_than_this_one
    reason = Rackbench::Servers.fetch("torquebox").unavailable_reason
    jruby = Rackbench::Servers.fetch("torquebox")
    java = jruby.java_major
    skip "this machine has Java #{java}, which JBoss AS 7 can run" if java && java <= 8

    assert_match(/JBoss AS 7, which needs Java <= 8; java here is #{Regexp.escape(jruby.java_version)}/, reason)
    assert_match(/MaxPermSize/, reason, "the error the attempt here hit")
  end

  def test_a_jruby_server_whose_gems_are_missing_names_the_install_command
    klass = Class.new(Rackbench::Servers.fetch("trinidad")) { def self.gem_home = "/nonexistent/vendor/jruby/trinidad" }
    assert_match %r{gem trinidad is not installed for JRuby in vendor/jruby/trinidad \(bin/setup: jruby -S gem install},
                 klass.unavailable_reason
  end

  def test_mongrel_without_its_vendored_build_explains_why_1_1_5_cannot_be_built
    klass = Class.new(Rackbench::Servers.fetch("mongrel")) { def self.gem_spec = nil }
    assert_match(/fastthread extension calls Config::CONFIG, removed from Ruby/, klass.unavailable_reason)
  end

  def test_a_suite_naming_torquebox_records_a_failed_cell_with_the_reason
    skip "TorqueBox can run here" unless Rackbench::Servers.fetch("torquebox").unavailable_reason
    path = write_suite("servers" => [{ "server" => "torquebox" }], "duration_s" => 1)
    store = Rackbench::Store.new(File.join(tmpdir, "results"))
    run_id = Rackbench::Runner.new(Rackbench::Suite.load(path), store: store).run
    cell = store.cells(run_id).first
    assert_equal "failed", cell["status"]
    assert_match(/torquebox cannot run here: .*Java/, cell["reason"])
    assert_empty leftovers
  end

  def test_passenger_threads_need_the_enterprise_edition
    error = assert_raises(Rackbench::ConfigError) do
      Rackbench::Servers.fetch("passenger").new("server" => "passenger", "concurrency_model" => "thread").validate!
    end
    assert_match(/needs Passenger Enterprise/, error.message)
  end
end
