# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Every adapter declares its knobs once: the check, the default and what
  # `rackbench servers` lists come from that declaration.
  class KnobsTest < Minitest::Test
    def adapters
      [Servers, Proxies, Services].flat_map { |registry| registry.names.map { |name| registry.fetch(name) } }
    end

    def test_every_knob_of_every_adapter_is_a_declared_knob_whose_default_fits_it
      adapters.each do |adapter|
        adapter.knob_schema.each do |name, knob|
          assert_instance_of Knob, knob, "#{adapter} #{name}"
          assert_nil knob.problem(knob.default), "#{adapter} #{name}'s default #{knob.default.inspect} fits its own check"
          refute_empty knob.doc, "#{adapter} #{name} says what it does"
        end
      end
    end

    def test_a_setting_is_the_entrys_value_or_the_knobs_default
      puma = Servers.fetch("puma").new("server" => "puma", "threads" => 8)
      assert_equal [8, 0], [puma.setting("threads"), puma.setting("workers")]
      assert_equal 4096, Proxies.fetch("nginx").new("proxy" => "nginx").setting("worker_connections")
      assert_equal 50, Services.fetch("upstream").new("service" => "upstream").setting(:delay_ms)
    end

    def test_a_value_that_does_not_fit_is_one_error_naming_adapter_key_and_value
      error = assert_raises(ConfigError) { Servers.fetch("falcon").new("server" => "falcon", "model" => "fibers").validate! }
      assert_equal 'server falcon: "model" must be one of forked, threaded, hybrid, got "fibers"', error.message
      error = assert_raises(ConfigError) { Proxies.fetch("nginx").new("proxy" => "nginx", "workers" => 0).validate! }
      assert_equal 'proxy nginx: "workers" must be a whole number > 0, got 0', error.message
      error = assert_raises(ConfigError) { Services.fetch("memcached").new("service" => "memcached", "threads" => 0).validate! }
      assert_equal 'service memcached: "threads" must be a whole number > 0, got 0', error.message
    end

    def test_a_key_no_adapter_of_the_family_takes_is_an_error_with_that_key_as_its_field
      [Servers.fetch("unicorn").new("server" => "unicorn", "threads" => 4),
       Proxies.fetch("nginx").new("proxy" => "nginx", "threads" => 4),
       Services.fetch("memcached").new("service" => "memcached", "delay_ms" => 4)].each do |adapter|
        error = assert_raises(ConfigError) { adapter.validate! }
        unknown = (adapter.config.keys - %w[server proxy service]).first
        assert_equal unknown, error.key, error.message
        assert_match(/\A#{adapter.knob_owner}: unknown key "#{unknown}"; it takes .*#{adapter.class.knobs.first}/, error.message)
      end
    end

    def test_a_value_that_does_not_fit_carries_its_knob_as_the_key
      error = assert_raises(ConfigError) { Servers.fetch("puma").new("server" => "puma", "threads" => -2).validate! }
      assert_equal "threads", error.key
    end

    def test_a_bad_key_of_a_servers_proxy_is_keyed_inside_the_proxy
      config = { "server" => "puma", "instances" => 2, "proxy" => { "proxy" => "nginx", "workers" => 0 } }
      error = assert_raises(ConfigError) { Servers.fetch("puma").new(config).validate! }
      assert_equal "proxy.workers", error.key
    end

    def test_a_subclass_takes_its_parents_knobs_and_its_own
      assert_equal Servers.fetch("passenger").knobs + ["mpm"], Servers.fetch("apache_passenger").knobs
    end

    def test_a_proxy_balances_by_its_first_way_unless_told
      assert_equal %w[round-robin least-conn], Proxies.fetch("nginx").knob_schema["balance"].values.first(2)
      assert_equal "round-robin", Proxies.fetch("nginx").new("proxy" => "nginx").balance
    end
  end
end
