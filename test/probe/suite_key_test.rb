# frozen_string_literal: true

require "test_helper"

module Rackbench
  module Probe
    # explain: in a suite, and the wrapper a deployment serves in the app's place.
    class SuiteKeyTest < Minitest::Test
      include TestHelpers

      def test_explain_needs_the_native_engine_and_says_so_at_its_key
        error = assert_raises(ConfigError) { Suite.load(write_suite("engine" => "wrk", "explain" => true)) }

        assert_match(/suite.yml:\d+: explain needs engine: native/, error.message)
      end

      def test_explain_must_be_true_or_false
        error = assert_raises(ConfigError) { Suite.load(write_suite("engine" => "native", "explain" => "yes")) }

        assert_match(/explain must be true or false/, error.message)
      end

      def test_the_wrapper_builds_the_apps_own_config_ru_inside_the_probe
        rackup = Wrapper.write(app: File.join(ROOT, "apps", "rack", "config.ru"), dir: tmpdir)
        text = File.read(rackup)

        assert_includes text, "use Rackbench::Probe::Middleware, dir: #{Wrapper.probe_dir(tmpdir).inspect}"
        assert_includes text, "Rack::Builder.parse_file(#{File.join(ROOT, "apps", "rack", "config.ru").inspect})"
        assert File.directory?(Wrapper.probe_dir(tmpdir))
      end
    end
  end
end
