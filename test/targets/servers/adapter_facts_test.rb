# frozen_string_literal: true

require "test_helper"

module Rackbench
  # What tune and init know of a server comes from its adapter file: adding
  # a server is adding that file.
  class AdapterFactsTest < Minitest::Test
    def test_every_tuned_value_is_one_its_knob_takes
      Servers.all.select(&:tune_space).each do |adapter|
        adapter.tune_space.merge(adapter.tune_fixed.transform_values { |v| [v] }).each do |knob, values|
          declared = adapter.knob_schema.fetch(knob) { flunk "#{adapter.server_name} tunes #{knob}, which it does not declare" }
          values.each { |v| assert_nil declared.problem(v), "#{adapter.server_name} #{knob} #{v}" }
        end
      end
    end

    def test_tune_knows_the_servers_whose_adapters_say_what_to_tune
      assert_equal "puma", Tune::Space.servers.first, "tune's default server comes first"
      assert_equal Servers.all.select(&:tune_space).map(&:server_name).sort, Tune::Space.servers.sort
      assert_equal %w[yjit preload fork_worker], Tune::Space.switches
    end

    def test_every_starter_entry_is_a_config_its_server_accepts_and_each_rank_is_taken_once
      starters = Servers.all.select(&:starter_rank)
      starters.each { |adapter| Servers.fetch(adapter.server_name).new(adapter.starter_entry).validate! }
      assert_equal starters.size, starters.map(&:starter_rank).uniq.size
      assert_equal({ "server" => "unicorn", "workers" => 2 }, Servers.fetch("unicorn").starter_entry)
    end
  end
end
