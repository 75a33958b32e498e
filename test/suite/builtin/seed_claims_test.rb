# frozen_string_literal: true

require "test_helper"
require "rackbench/article/preflight"
require "rackbench/article/summary"

module Rackbench
  # The five seed suites' claims as written: each is a claim rackbench can
  # check (a known kind and metric), names configs the suite measures, and
  # the article's printed rows name them too; the claims that rest on the
  # article's hardware threads say so (needs_cpus).
  class SeedClaimsTest < Minitest::Test
    SEEDS = %w[torquebox-2011 thin-nginx-2008 app-servers-2015 puma-vs-unicorn-2016 lighttpd-proxy-2008].freeze

    SEEDS.each do |name|
      define_method("test_#{name.tr("-", "_")}_claims_name_configs_its_suite_measures") do
        suite = Suite.load(name)
        entries = suite["servers"]
        specs = suite["article"]["claims"] + suite["article"].dig("printed", "rows").to_a
        specs.each do |spec|
          Article::Claim.new({ "says" => "printed" }.merge(spec), []) # a bad kind or metric raises ConfigError
          %w[a b].each do |side|
            next unless spec[side]

            assert(entries.any? { |entry| subset?(spec[side], entry) }, "#{name}: #{spec["says"]}: #{side} #{spec[side]} " \
                                                                        "matches no server entry")
          end
        end
      end
    end

    def test_claims_on_the_articles_eight_hardware_threads_need_eight_cpus
      claims = Suite.load("puma-vs-unicorn-2016")["article"]["claims"]
      eight = claims.select { |c| c["endpoint"] == "fibonacci" && [c["a"], c["b"]].map { |m| m["workers"] }.sort == [4, 8] }
      assert_equal 2, eight.size
      assert_equal([8, 8], eight.map { |c| c["needs_cpus"] })
    end

    def test_puma_x4_10_against_x8_5_on_sleep_at_scale_cannot_show_here_before_the_run
      suite = Suite.load("puma-vs-unicorn-2016", overrides: { "scale" => true })
      answer = Article::Preflight.new(suite).answers.find { |a| a.says.start_with?("Puma x4:10 beats Puma x8:5 on sleep") }
      assert_equal %i[cannot_show_here too_few_clients], [answer.outcome, answer.reason]
      assert_operator answer.facts["clients"], :<=, answer.facts["threads"].values.max, "10 clients, no queue for a thread"
      assert_equal [50, 40, 40], [answer.facts["article_clients"], *answer.facts["article_threads"].values]
    end

    def test_torquebox_2011_at_scale_plans_only_cells_a_claim_reads_and_every_claim_it_can_show_finds_its_cells
      suite = Suite.load("torquebox-2011", overrides: { "scale" => true })
      cells = Plan.new(suite).cells.map { |c| c.key.columns }
      claims = suite["article"]["claims"].map { |spec| Article::Claim.new(spec, cells, scaled: suite["scaled"]) }
      read = claims.flat_map(&:involved)
      name = ->(cell) { "#{cell["label"]} on #{cell["endpoint"]}" }
      assert_empty cells.map(&name) - read.map(&name), "cells no claim reads"
      cannot = Article::Preflight.new(suite).answers.map(&:says)
      assert_equal ["Passenger would not start with a pool of 500"], cannot
      assert_predicate RepeatPolicy.new(suite.data), :sequential?, "starts until each claim is settled"
      claims.reject { |c| cannot.include?(c.says) }.each do |claim|
        refute_empty claim.involved, claim.says
        assert_operator claim.involved.size, :>=, claim.kind == "warms_up" ? 1 : 2, claim.says
      end
    end

    def subset?(match, entry)
      match.all? { |k, v| v.is_a?(Hash) ? entry[k].is_a?(Hash) && subset?(v, entry[k]) : entry[k] == v }
    end
  end
end
