# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"
require "rackbench/article/claim_looks"

module Rackbench
  # A seed run's stopping follows its claims: the cells an unsettled claim
  # reads get another start, whatever the block's leader and runner-up do.
  class ClaimLooksTest < Minitest::Test
    include SeedFixtures

    PUMA = { "server" => "puma", "app" => "sinatra" }.freeze
    THIN = { "server" => "thin", "app" => "sinatra" }.freeze
    UNICORN = { "server" => "unicorn", "app" => "sinatra" }.freeze
    CLOSE_A = [0.95, 1.0, 1.05].freeze
    CLOSE_B = [1.04, 0.97, 0.99].freeze

    # Puma far ahead (its lead over Thin settled); Thin and Unicorn close.
    def cells
      [cell("puma", PUMA, rps: 400.0, spread: [1.0, 1.01, 0.99]),
       cell("thin", THIN, rps: 100.0, spread: CLOSE_A),
       cell("unicorn", UNICORN, rps: 102.0, spread: CLOSE_B)]
    end

    def looks(*specs) = Article::ClaimLooks.new(specs.map { |s| { "endpoint" => "hello", "concurrency" => 10 }.merge(s) })

    def thin_beats_unicorn = { "says" => "Thin beats Unicorn", "a" => THIN, "b" => UNICORN }

    def test_a_claim_on_two_configs_behind_a_settled_leader_keeps_both_measured
      leader_rule = RepeatPolicy.new({ "stopping" => "sequential", "deployments" => 3, "windows" => 1 })
      assert_empty leader_rule.open_cells(cells), "the leader against the runner-up is settled"
      assert_equal %w[thin unicorn], looks(thin_beats_unicorn).open_cells(cells).map(&:label).sort
    end

    def test_a_settled_claim_and_a_cell_no_claim_reads_need_no_more_starts
      puma_beats_thin = { "says" => "Puma beats Thin", "a" => PUMA, "b" => THIN }
      assert_empty looks(puma_beats_thin).open_cells(cells)
    end

    def test_a_leads_claim_keeps_its_leader_and_rivals_until_it_is_settled
      leads = { "says" => "Thin leads", "kind" => "leads", "a" => THIN, "rivals" => [UNICORN] }
      assert_equal %w[thin unicorn], looks(leads).open_cells(cells).map(&:label).sort
      puma_leads = { "says" => "Puma leads", "kind" => "leads", "a" => PUMA }
      assert_empty looks(puma_leads).open_cells(cells), "ahead of both: settled"
    end

    def test_a_claim_whose_side_failed_cannot_be_shown_so_it_keeps_nothing_measured
      failed = [cell("thin", THIN, rps: 100.0, spread: CLOSE_A), cell("unicorn", UNICORN, status: "failed", reason: "exited")]
      assert_empty looks(thin_beats_unicorn).open_cells(failed)
    end

    def test_a_seed_suite_gives_its_claims_a_suite_without_claims_none
      assert_instance_of Article::ClaimLooks, Article::ClaimLooks.for(Suite.load("app-servers-2015"))
      assert_nil Article::ClaimLooks.for(Suite.load(write_suite))
    end
  end
end
