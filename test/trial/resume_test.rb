# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A Resume continues a run with the cells the run stored when it was
  # created: it never plans them again.
  class ResumeUnitTest < Minitest::Test
    def setup
      @store = Store.new(tmpdir)
    end

    def teardown
      @store.close
      super
    end

    def interrupted_run(suite, plan)
      run = @store.create_run(suite: suite, settings: suite.data, machine: {}, pinning: {}, plan: plan)
      @store.finish_run(run["id"], "interrupted")
      run
    end

    def test_the_plan_is_the_one_stored_with_the_run_not_one_made_again
      suite = Suite.load(write_suite("concurrency" => [2]))
      planned_then = Plan.new(Suite.load(write_suite({ "concurrency" => [2, 4] }, "then.yml")))
      run = interrupted_run(suite, planned_then)
      plan = Resume.new(@store, run["id"]).plan
      assert_equal [2, 4], plan.cells.map(&:concurrency), "the stored cells, though the settings would plan one"
      assert_equal planned_then.cells.map(&:key), plan.cells.map(&:key)
    end

    def test_a_scaled_run_resumes_with_its_scaled_settings_though_its_mappings_came_back_from_json_with_string_keys
      suite = Suite.load(write_suite("concurrency" => [250], "duration_s" => 30,
                                     "scale" => { "concurrency" => { 250 => 10 }, "duration_s" => 2 },
                                     "smoke" => { "concurrency" => { 250 => 2 } }), overrides: { "scale" => true })
      run = interrupted_run(suite, Plan.new(suite))
      assert_equal({ "250" => 10 }, @store.run(run["id"]).dig("settings", "scale", "concurrency"), "what the store gives back")
      resumed = Resume.new(@store, run["id"]).suite
      assert_equal [10], resumed["concurrency"]
      assert_equal 2, resumed["duration_s"]
      assert_equal [10], Resume.new(@store, run["id"]).plan.cells.map(&:concurrency)
    end

    def test_a_reopened_run_keeps_the_time_it_stood_stopped
      suite = Suite.load(write_suite("concurrency" => [2]))
      run = interrupted_run(suite, Plan.new(suite))
      stopped_at = @store.run(run["id"])["finished_at"]
      reopened = @store.reopen_run(run["id"])
      assert_equal "running", reopened["status"]
      paused = reopened.dig("settings", "paused")
      assert_equal 1, paused.size
      pause = paused.first
      assert_equal stopped_at, pause["from"]
      assert_operator Time.iso8601(pause["to"]), :>=, Time.iso8601(pause["from"])
    end

    def test_a_resumed_run_gets_its_secrets_back_from_the_suite_file_and_its_env_file
      File.write(File.join(tmpdir, "app.env"), "API_TOKEN=tok-0a9b8c7d6e\n")
      path = write_suite("env" => { "SECRET_KEY_BASE" => "skb-5e4d3c2b1a", "DATABASE_URL" => "postgres://app:pw-1f@h/app" },
                         "env_file" => "app.env")
      suite = Suite.load(path)
      run = interrupted_run(suite, Plan.new(suite))
      assert_equal suite.env, Resume.new(@store, run["id"]).suite.env

      File.write(path, File.read(path).sub("skb-5e4d3c2b1a", "skb-changed"))
      error = assert_raises(ConfigError) { Resume.new(@store, run["id"]).suite }
      assert_match(/\Arun #{run["id"]}: #{Regexp.escape(path)}: env\.SECRET_KEY_BASE: its value was kept secret/, error.message)
    end

    def test_a_run_stored_without_its_plan_cannot_be_resumed_and_says_why
      suite = Suite.load(write_suite)
      run = interrupted_run(suite, nil)
      error = assert_raises(ConfigError) { Resume.new(@store, run["id"]).plan }
      assert_equal "run #{run["id"]} was stored by a rackbench that did not keep its planned cells: " \
                   "it cannot be resumed; run its suite again", error.message
    end
  end
end
