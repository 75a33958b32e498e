# frozen_string_literal: true

require "test_helper"
require "rackbench/init/detection"
require "rackbench/init/boot"
require "rackbench/init/starter"

module Rackbench
  module Init
    # What init adds to a starter suite before it starts anything: a Rails
    # app's production environment, setup and headers, the paths to try and
    # the variables servers stopped without (test/integration/init_test.rb
    # starts the servers).
    class StarterTest < Minitest::Test
      def app(files) = Detection.new(write_files(files))

      RAILS = {
        "config.ru" => "require_relative 'config/environment'\nrun Rails.application\n",
        "config/application.rb" => "module Shop\n  class Application < Rails::Application\n  end\nend\n",
        "config/database.yml" => "production:\n  adapter: sqlite3\n",
        "config/environments/production.rb" => "Rails.application.configure do\n  config.force_ssl = true\nend\n"
      }.freeze

      def test_a_rails_app_runs_in_production_with_a_database_its_setup_and_https_behind_a_proxy
        starter = Starter.new(app(RAILS), env: { SECRET_KEY_BASE: "given" })
        assert_equal %w[production given warn sqlite3:storage/production.sqlite3],
                     starter.env.values_at("RAILS_ENV", "SECRET_KEY_BASE", "RAILS_LOG_LEVEL", "DATABASE_URL")
        assert_equal ["bin/rails db:prepare"], starter.setup
        assert_equal({ "X-Forwarded-Proto" => "https" }, starter.headers)
      end

      def test_a_rails_database_yml_that_names_its_file_gets_no_database_url
        files = RAILS.merge("config/database.yml" => "production:\n  adapter: sqlite3\n  database: db/prod.sqlite3\n")
        refute Starter.new(app(files)).env.key?("DATABASE_URL")
      end

      def test_a_rack_app_gets_only_what_was_given_and_the_paths_asked_for_too
        starter = Starter.new(app("config.ru" => "run ->(_env) { [200, {}, ['ok']] }\n"), env: { "A" => 1 }, paths: ["/health"])
        assert_equal [{ "A" => "1" }, [], {}], [starter.env, starter.setup, starter.headers]
        assert_equal ["/", "/health"], starter.paths
        assert_nil starter.ready_path
      end

      def test_the_variables_servers_stopped_without_name_those_servers
        starter = Starter.new(app("config.ru" => "run ->(_env) { [200, {}, ['ok']] }\n"))
        missing = ->(server) { Boot::Outcome.new(entry: { "server" => server }, reason: 'key not found: "API_KEY"') }
        starter.outcomes.push(missing.call("puma"), missing.call("unicorn"),
                              Boot::Outcome.new(entry: { "server" => "thin" }, answers: {}, served: {}))
        assert_equal({ "API_KEY" => %w[puma unicorn] }, starter.needed)
        assert_equal ["thin"], starter.started.map(&:server)
      end
    end
  end
end
