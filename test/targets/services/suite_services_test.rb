# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A suite's services: entries are checked when the suite is read, before
  # anything starts, with errors that name the file, the line and the key.
  class SuiteServicesTest < Minitest::Test
    def load_suite(services) = Suite.load(write_suite("services" => services))

    def test_every_registered_service_is_found_by_name
      assert_equal %w[memcached postgres upstream], Services.names
      classes = Services.names.map { |n| Services.fetch(n) }
      assert_equal %w[memcached postgres upstream], classes.map(&:service_name)
      assert(classes.all? { |k| k < Services::Base })
    end

    def test_a_suite_naming_known_services_loads
      suite = load_suite([{ "service" => "upstream", "delay_ms" => 20 }, { "service" => "memcached", "bind" => "unix" }])
      assert_equal 20, suite["services"].first["delay_ms"]
    end

    def test_an_unknown_service_names_the_file_line_and_key
      error = assert_raises(ConfigError) { load_suite([{ "service" => "redis" }]) }
      assert_match(/suite\.yml:\d+: services\.0\.service unknown service "redis"; known: memcached, postgres, upstream/,
                   error.message)
    end

    def test_an_unknown_key_of_a_service_names_that_key
      error = assert_raises(ConfigError) { load_suite([{ "service" => "upstream" }, { "service" => "postgres", "port" => 5 }]) }
      assert_match(/services\.1\.port service postgres: unknown key "port"/, error.message)
    end
  end
end
