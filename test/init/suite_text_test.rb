# frozen_string_literal: true

require "test_helper"
require "yaml"
require "rackbench/init/boot"
require "rackbench/init/suite_text"
require "rackbench/init/starter"

module Rackbench
  module Init
    # The starter suite init writes: what answered goes in, what did not is a
    # comment that says why, and the text is a suite rackbench reads.
    class SuiteTextTest < Minitest::Test
      Detection = Struct.new(:dir, :framework, :left_out, keyword_init: true)
      Starter = Struct.new(:detection, :env, :given_env, :needed, :setup, :setup_failure, :ready_path, :kept, :dropped,
                           :headers, :outcomes, keyword_init: true) do
        def started = outcomes.select(&:started?)
        def entry(server) = Servers.fetch(server).starter_entry

        def env_parts = Init::Starter.env_parts(env)
      end

      def starter(**given)
        detection = Detection.new(dir: File.join(tmpdir, "shop"), framework: "rack",
                                  left_out: { "falcon" => "falcon is not in the Gemfile.lock" })
        puma = Boot::Outcome.new(entry: { "server" => "puma", "threads" => 5 }, answers: {}, served: {})
        unicorn = Boot::Outcome.new(entry: { "server" => "unicorn", "workers" => 2 },
                                    reason: "exited: key not found: \"SECRET_KEY_BASE\" in #{detection.dir}/config.ru")
        Starter.new(detection: detection, env: {}, given_env: {}, needed: { "SECRET_KEY_BASE" => ["unicorn"] }, setup: [],
                    setup_failure: nil, ready_path: nil, kept: { "/" => 200, "/items" => 200 },
                    dropped: { "/admin" => "401" }, headers: {}, outcomes: [puma, unicorn], **given)
      end

      def test_what_answered_is_the_suite_and_what_did_not_is_a_comment_saying_why
        text = SuiteText.new(starter).to_s
        suite = YAML.safe_load(text)
        assert_equal [{ "path" => "/", "expect_status" => 200 }, { "path" => "/items", "expect_status" => 200 }],
                     suite["endpoints"]
        assert_equal [{ "server" => "puma", "threads" => 5 }], suite["servers"]
        assert_includes text, "  # - /admin    # left out: 401"
        assert_includes text, "  # - {server: unicorn, workers: 2}    # cannot start: exited: key not found: " \
                              "\"SECRET_KEY_BASE\" in this folder/config.ru"
        assert_includes text, "#   SECRET_KEY_BASE: ...    # needed: unicorn stopped without it"
        assert_includes text, "# left out: falcon is not in the Gemfile.lock; then add {server: falcon}"
      end

      def test_the_text_is_a_suite_rackbench_accepts
        dir = starter.detection.dir
        FileUtils.mkdir_p(dir)
        File.write(File.join(dir, "config.ru"), "run ->(_) { [200, {}, []] }\n")
        File.write(File.join(dir, "rackbench.yml"), SuiteText.new(starter).to_s)
        suite = Suite.load(File.join(dir, "rackbench.yml"))
        assert_equal(%w[/ /items], suite.endpoints.map { |e| e["path"] })
      end

      def test_without_a_server_it_suggests_puma
        text = SuiteText.new(starter(outcomes: [])).to_s
        assert_includes text, "servers:   # no server in the Gemfile.lock: `bundle add puma`, then list it here"
        assert_equal [Servers.fetch("puma").starter_entry], YAML.safe_load(text)["servers"]
      end
    end
  end
end
