# frozen_string_literal: true

require_relative "server_helper"

module Rackbench
  # yjit: true starts the server's Ruby with YJIT on: the app itself says so.
  class YjitTest < Minitest::Test
    include ServerTestHelpers

    def app
      File.join(tmpdir, "config.ru").tap do |path|
        File.write(path, "run ->(_env) { [200, {}, [RubyVM::YJIT.enabled?.to_s]] }\n")
      end
    end

    def yjit_answer(config)
      deploy(config, app: app)
      _status, _headers, body = Readiness.get(@deployment.target("/"))
      body
    ensure
      @deployment&.stop
      @deployment = nil
    end

    def test_a_server_with_yjit_true_runs_its_app_with_yjit_on_and_without_it_off
      skip "#{RUBY_DESCRIPTION} has no YJIT" unless Servers::Base.yjit_available?
      assert_equal "true", yjit_answer("server" => "puma", "threads" => 1, "yjit" => true)
      assert_equal "false", yjit_answer("server" => "puma", "threads" => 1)
      assert_equal "true", yjit_answer("server" => "unicorn", "workers" => 1, "yjit" => true)
    end

    def test_the_label_says_yjit
      assert_equal "puma x0:4 +yjit", Servers.fetch("puma").new("server" => "puma", "threads" => 4, "yjit" => true).label
    end

    def test_yjit_must_be_true_or_false
      error = assert_raises(ConfigError) { Servers.fetch("puma").new("server" => "puma", "yjit" => "on").validate! }
      assert_equal 'server puma: "yjit" must be true or false, got "on"', error.message
    end

    def test_a_jruby_server_refuses_yjit
      error = assert_raises(ConfigError) { Servers.fetch("trinidad").new("server" => "trinidad", "yjit" => true).validate! }
      assert_match "does not run on this Ruby", error.message
    end
  end
end
