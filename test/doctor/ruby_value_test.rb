# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Doctor
    class RubyValueTest < Minitest::Test
      def value(env = {}, vars = {}) = RubyValue.new(env: env, vars: vars)

      def test_env_fetch_takes_the_environment_over_its_default
        assert_equal 8, value("RAILS_MAX_THREADS" => "8").of('Integer(ENV.fetch("RAILS_MAX_THREADS") { 5 })')
        assert_equal 5, value.of('Integer(ENV.fetch("RAILS_MAX_THREADS") { 5 })')
        assert_equal "development", value.of('ENV.fetch("RAILS_ENV", "development")')
        assert_equal 2, value.of('(ENV["WEB_CONCURRENCY"] || 2).to_i')
      end

      def test_names_are_earlier_assignments
        assert_equal 3, value({}, { "threads_count" => 3 }).of("threads_count")
      end

      def test_anything_else_is_unknown_rather_than_guessed
        refute RubyValue.known?(value.of("Etc.nprocessors"))
        refute RubyValue.known?(value.of("Integer(ENV.fetch('X') { compute })"))
      end
    end
  end
end
