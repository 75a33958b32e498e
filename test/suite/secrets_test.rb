# frozen_string_literal: true

require "test_helper"

module Rackbench
  class Suite
    class SecretsTest < Minitest::Test
      def data(extra = {})
        { "env" => { "SECRET_KEY_BASE" => "9f2c0a1b", "RAILS_ENV" => "production",
                     "DATABASE_URL" => "postgres://app:hunter2@127.0.0.1/app", "API_TOKEN" => 1234 },
          "servers" => [{ "server" => "puma", "env" => { "AWS_SECRET_ACCESS_KEY" => "wJalr" } }] }.merge(extra)
      end

      def test_names_that_look_secret_are_kept_out_whatever_their_value
        secrets = Secrets.new(data)
        %w[SECRET_KEY_BASE API_TOKEN AWS_SECRET_ACCESS_KEY DB_PASSWORD PGPASSWD RAILS_MASTER_KEY GOOGLE_CREDENTIALS]
          .each { |name| assert secrets.name?(name), name }
        %w[RAILS_ENV DATABASE_URL WEB_CONCURRENCY PWD].each { |name| refute secrets.name?(name), name }
      end

      def test_values_are_the_secret_names_values_and_every_url_password_longest_first
        assert_equal %w[9f2c0a1b hunter2 wJalr 1234], Secrets.new(data).values
      end

      def test_every_env_file_variable_is_secret_whatever_its_name
        secrets = Secrets.new(data, file: { "GREETING" => "hello there", "REDIS_URL" => "redis://:s3cret@127.0.0.1" })
        assert_includes secrets.values, "hello there"
        assert_includes secrets.values, "s3cret"
      end

      def test_public_env_names_are_stored_as_typed
        secrets = Secrets.new(data("public_env" => %w[API_TOKEN DATABASE_URL]))
        refute secrets.name?("API_TOKEN")
        assert secrets.public?("DATABASE_URL")
        assert_equal %w[9f2c0a1b wJalr], secrets.values
      end

      def test_none_knows_no_values
        assert_empty Secrets.none.values
        assert Secrets.none.name?("SECRET_KEY_BASE")
      end
    end
  end
end
