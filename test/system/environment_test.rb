# frozen_string_literal: true

require "test_helper"

module Rackbench
  # The provenance a run stores of the machine it ran on.
  class EnvironmentTest < Minitest::Test
    def test_it_holds_each_installed_proxys_version_as_its_adapter_reads_it
      proxies = Environment.capture.fetch("proxies")
      Proxies.all.each do |klass|
        if klass.installed?
          assert_equal klass.version, proxies.fetch(klass.proxy_name), klass.proxy_name
        else
          refute proxies.key?(klass.proxy_name), "#{klass.proxy_name} is not installed, so it has no version"
        end
      end
      assert_match(/\A\d+\.\d+\.\d+\z/, proxies.fetch("thruster")) if Proxies.fetch("thruster").installed?
    end
  end
end
