# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Tune
    class SpaceTest < Minitest::Test
      def test_the_coarse_grid_is_the_largest_corner_the_other_corners_the_centre_and_the_smallest_last
        space = Space.new("puma")
        assert_equal 20, space.grid.size
        assert_equal([[4, 16], [0, 16], [4, 1], [2, 4], [0, 1]], space.coarse.map { |c| [c["workers"], c["threads"]] })
      end

      def test_neighbours_are_one_step_away_on_one_knob
        space = Space.new("puma")
        near = space.neighbours({ "server" => "puma", "workers" => 2, "threads" => 4 })
        assert_equal([[1, 4], [4, 4], [2, 2], [2, 8]], near.map { |c| [c["workers"], c["threads"]] })
      end

      def test_values_given_on_the_command_line_replace_a_knobs_defaults
        space = Space.new("puma", values: { "threads" => [8, 4, 8] })
        assert_equal([[0, 4], [0, 8], [1, 4]], space.grid.first(3).map { |c| [c["workers"], c["threads"]] })
        assert_equal 8, space.grid.size
      end

      def test_varying_yjit_doubles_the_grid_and_yjit_off_is_the_plain_config
        space = Space.new("unicorn", vary: ["yjit"])
        assert_equal 8, space.grid.size
        assert_includes space.grid, { "server" => "unicorn", "workers" => 2 }
        assert_includes space.grid, { "server" => "unicorn", "workers" => 2, "yjit" => true }
        assert_includes space.neighbours({ "server" => "unicorn", "workers" => 2 }),
                        { "server" => "unicorn", "workers" => 2, "yjit" => true }
      end

      def test_varying_malloc_and_yjit_tries_each_config_with_and_without_jemalloc_and_yjit
        space = Space.new("puma", values: { "workers" => [2], "threads" => [4] }, vary: %w[malloc yjit])
        assert_equal [{ "server" => "puma", "workers" => 2, "threads" => 4 },
                      { "server" => "puma", "workers" => 2, "threads" => 4, "yjit" => true },
                      { "server" => "puma", "workers" => 2, "threads" => 4, "malloc" => "jemalloc" },
                      { "server" => "puma", "workers" => 2, "threads" => 4, "malloc" => "jemalloc",
                        "yjit" => true }].sort_by(&:to_s),
                     space.grid.sort_by(&:to_s)
        space.grid.each { |config| Servers.fetch("puma").new(config).validate! }
        assert_includes Space.switches, "malloc"
      end

      def test_preload_is_tried_only_where_there_are_workers_to_fork
        grid = Space.new("puma", values: { "workers" => [0, 2], "threads" => [4] }, vary: ["preload"]).grid
        assert_equal([[0, nil], [2, nil], [2, true]], grid.map { |c| [c["workers"], c["preload"]] })
      end

      def test_falcon_is_tuned_in_its_hybrid_model
        assert(Space.new("falcon").grid.all? { |c| c["model"] == "hybrid" })
      end

      def test_every_config_of_every_space_is_one_its_server_accepts
        Space.servers.each do |server|
          Space.new(server, vary: ["yjit"]).grid.each { |config| Servers.fetch(server).new(config).validate! }
        end
        Space.new("puma", vary: %w[preload fork_worker]).grid.each { |config| Servers.fetch("puma").new(config).validate! }
      end

      def test_bad_spaces_name_the_option_and_value
        assert_equal "tune knows the configs of #{Space.servers.join(", ")}; got --server \"webrick\"",
                     assert_raises(ConfigError) { Space.new("webrick") }.message
        assert_match "--threads: want a list of whole numbers like 1,2,4, got \"0\"",
                     assert_raises(ConfigError) { Space.new("puma", values: { "threads" => [0] }) }.message
        assert_match "--threads: unicorn has no threads knob",
                     assert_raises(ConfigError) { Space.new("unicorn", values: { "threads" => [2] }) }.message
        assert_match "--vary: unicorn has no fork_worker knob",
                     assert_raises(ConfigError) { Space.new("unicorn", vary: ["fork_worker"]) }.message
      end
    end
  end
end
