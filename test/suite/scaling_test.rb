# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

module Rackbench
  # A suite's scale: block: mappings everywhere or for the endpoints named,
  # workers by the CPUs the server gets, and what changed, kept for the reports.
  class SuiteScalingTest < Minitest::Test
    SUITE = <<~YAML
      name: scaled
      endpoints:
        - {path: /hello, name: hello, concurrency: [10, 100]}
        - {path: /sleep/100, name: sleep, concurrency: [100, 500]}
      servers:
        - {server: unicorn, workers: 4, endpoints: [hello]}
        - {server: unicorn, workers: clients, endpoints: [sleep]}
        - {server: thin, endpoints: [sleep], concurrency: [100]}
      article: {cpus: 4}
    YAML

    def load(extra, yaml: SUITE)
      Suite.new("#{yaml}#{extra}", path: "scaled.yml", overrides: { "scale" => true })
    end

    def levels(suite) = Plan.new(suite).cells.map { |c| [c.endpoint["name"], c.concurrency] }.uniq

    def test_a_mapping_for_one_endpoint_leaves_the_others_levels_alone
      suite = load(<<~YAML)
        scale:
          endpoints:
            sleep: {concurrency: {100: 20, 500: 100}}
      YAML
      assert_equal [["hello", 10], ["hello", 100], ["sleep", 20], ["sleep", 100]], levels(suite)
      assert_equal [20], suite["servers"][2]["concurrency"], "the entry serving only sleep follows it"
      assert_equal [{ "key" => "concurrency", "from" => 100, "to" => 20, "endpoint" => "sleep" },
                    { "key" => "concurrency", "from" => 500, "to" => 100, "endpoint" => "sleep" }],
                   suite["scaled"]["changes"]
    end

    def test_the_same_mapping_everywhere_reaches_every_endpoint
      suite = load("scale: {concurrency: {100: 20, 500: 100}}\n")
      assert_equal [["hello", 10], ["hello", 20], ["sleep", 20], ["sleep", 100]], levels(suite)
    end

    def test_an_endpoint_without_levels_of_its_own_gets_the_suites_scaled
      yaml = SUITE.sub("{path: /sleep/100, name: sleep, concurrency: [100, 500]}", "{path: /sleep/100, name: sleep}")
      suite = load("concurrency: [100, 500]\nscale:\n  endpoints:\n    sleep: {concurrency: {500: 50}}\n", yaml: yaml)
      assert_equal [["hello", 10], ["hello", 100], ["sleep", 100], ["sleep", 50]], levels(suite)
    end

    def test_an_entry_serving_a_scaled_and_an_unscaled_endpoint_is_refused
      yaml = SUITE.sub("{server: thin, endpoints: [sleep], concurrency: [100]}", "{server: thin, concurrency: [100]}")
      error = assert_raises(ConfigError) { load("scale:\n  endpoints:\n    sleep: {concurrency: {100: 20}}\n", yaml: yaml) }
      assert_match(/\Ascaled.yml:\d+: servers.2.concurrency cannot be scaled for sleep alone/, error.message)
    end

    def test_an_unknown_endpoint_or_a_bad_mapping_names_the_key
      error = assert_raises(ConfigError) { load("scale:\n  endpoints:\n    slep: {concurrency: {100: 20}}\n") }
      assert_match(/scaled.yml:\d+: scale.endpoints.slep is not one of the suite's endpoints \(hello, sleep\)/, error.message)
      error = assert_raises(ConfigError) { load("scale:\n  endpoints:\n    sleep: {concurrency: {100: 0}}\n") }
      assert_match(/scale.endpoints.sleep.concurrency.100 must be a whole number from 1 to 100000, got 0/, error.message)
    end

    def test_workers_by_cpus_follow_the_cpus_the_server_gets_against_the_articles
      Pinning.stub(:available_cpus, (0..7).to_a) do
        # Not pinned: the server may use all 8 CPUs, twice the article's 4.
        suite = load("scale: {pin: false, workers: by_cpus}\n")
        assert_equal 8, suite["servers"][0]["workers"]
        assert_equal "clients", suite["servers"][1]["workers"]
        assert_equal({ "server" => 8, "pinned" => false, "article" => 4 }, suite["scaled"]["cpus"])
        # Pinned (taskset, from bin/setup's util-linux): the load generator takes one CPU, the server the other 7.
        pinned = load("scale: {workers: by_cpus}\n")
        assert_equal({ "server" => 7, "pinned" => true, "article" => 4 }, pinned["scaled"]["cpus"])
        assert_equal 7, pinned["servers"][0]["workers"]
      end
      Pinning.stub(:available_cpus, (0..7).to_a) do
        unpinned = Suite.new("#{SUITE}scale: {workers: by_cpus}\n", path: "scaled.yml",
                                                                    overrides: { "scale" => true, "pin" => false })
        assert_equal [8, false], [unpinned["servers"][0]["workers"], unpinned["pin"]], "--no-pin wins, and the CPUs follow it"
      end
      Pinning.stub(:available_cpus, [0, 1]) do
        suite = load("scale: {workers: by_cpus}\n")
        assert_equal 1, suite["servers"][0]["workers"], "a quarter of 4 workers on 1 server CPU, at least one"
      end
    end

    def test_by_cpus_needs_the_articles_cpus
      error = assert_raises(ConfigError) { load("scale: {workers: by_cpus}\n", yaml: SUITE.sub("article: {cpus: 4}\n", "")) }
      assert_match(/scaled.yml:\d+: scale.workers by_cpus scales by the article's CPUs: the suite's article: needs cpus:/,
                   error.message)
    end

    def test_the_note_is_kept_and_must_be_a_sentence
      suite = load("scale: {duration_s: 1, note: hello keeps its clients}\n")
      assert_equal "hello keeps its clients", suite["scaled"]["note"]
      error = assert_raises(ConfigError) { load("scale: {note: [1]}\n") }
      assert_match(/scale.note must be a sentence/, error.message)
    end
  end
end
