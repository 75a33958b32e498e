# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    class DatabaseYmlTest < Minitest::Test
      include TestHelpers

      def pools(yaml, env_name = "production", env: {})
        FileUtils.mkdir_p(File.join(tmpdir, "config"))
        File.write(File.join(tmpdir, "config", "database.yml"), yaml)
        DatabaseYml.new(AppFiles.new(tmpdir), env: env).pools(env_name)
      end

      def test_the_pool_inherited_from_an_anchor_is_named_at_the_anchors_line
        pool = pools(<<~YAML).first
          default: &default
            adapter: postgresql
            pool: 10
          production:
            <<: *default
        YAML

        assert_equal [10, 3], [pool.connections, pool.line]
      end

      def test_a_pool_set_in_the_environment_overrides_the_anchor
        pool = pools(<<~YAML).first
          default: &default
            pool: 10
          production:
            <<: *default
            pool: <%= ENV.fetch("DB_POOL") { 7 } %>
        YAML

        assert_equal [7, 5], [pool.connections, pool.line]
      end

      def test_each_database_of_a_three_tier_config_has_its_pool_and_a_missing_one_is_rails_default
        found = pools(<<~YAML)
          production:
            primary:
              adapter: sqlite3
              pool: 3
            cache:
              adapter: sqlite3
        YAML

        assert_equal([["primary", 3, 4], ["cache", 5, nil]], found.map { |p| [p.name, p.connections, p.line] })
      end

      def test_erb_it_cannot_read_leaves_the_size_unknown
        assert_nil pools("production:\n  pool: <%= Etc.nprocessors * 2 %>\n").first.connections
      end
    end
  end
end
