# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A Plan expands a suite into cells, each with its CellKey: the label
  # rendered once by the server's adapter, the offered rate and the variant
  # as fields of their own.
  class PlanTest < Minitest::Test
    def plan(extra = {}) = Plan.new(Suite.load(write_suite(extra)))

    def test_a_cell_for_each_server_entry_endpoint_and_concurrency_in_suite_order
      cells = plan("endpoints" => ["/hello", "/sleep/10"], "concurrency" => [1, 4],
                   "servers" => [{ "server" => "puma" }, { "server" => "webrick" }]).cells
      assert_equal((1..8).to_a, cells.map(&:index))
      assert_equal([["puma", "/hello", 1], ["puma", "/hello", 4], ["puma", "/sleep/10", 1]],
                   cells.first(3).map { |c| [c.key.server, c.key.path, c.key.concurrency] })
    end

    def test_each_key_carries_the_label_its_adapter_renders
      key = plan("servers" => [{ "server" => "puma", "workers" => 2, "threads" => 4 }]).cells.first.key
      assert_equal Servers.fetch("puma").new("server" => "puma", "workers" => 2, "threads" => 4).label, key.config_label
      assert_equal key.config_label, key.label, "no offered rate: the config's label"
    end

    def test_a_rate_sweeps_offered_rate_is_a_field_and_its_label_is_rendered_from_it
      keys = plan("engine" => "native", "rates" => [50, 12.5]).cells.map(&:key)
      assert_equal [50, 12.5], keys.map(&:offered_rate_per_s)
      assert_equal ["puma x0:2 @ 50 req/s", "puma x0:2 @ 12.5 req/s"], keys.map(&:label)
      assert_equal ["puma x0:2"] * 2, keys.map(&:config_label)
    end

    def test_two_entries_of_the_same_config_are_two_variants
      cells = plan("servers" => [{ "server" => "puma" }, { "server" => "puma" }]).cells
      assert_equal([1, 2], cells.map { |c| c.key.variant })
      assert_equal 2, Plan.new(Suite.load(write_suite("servers" => [{ "server" => "puma" }] * 2))).groups.size
    end

    def test_a_clients_knob_takes_each_cells_concurrency_in_its_key
      configs = plan("concurrency" => [2, 8], "servers" => [{ "server" => "puma", "threads" => "clients" }]).cells
      assert_equal([2, 8], configs.map { |c| c.key.config["threads"] })
      assert_equal ["puma x0:2", "puma x0:8"], configs.map(&:label)
    end
  end
end
