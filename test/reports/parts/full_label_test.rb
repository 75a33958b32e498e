# frozen_string_literal: true

require "test_helper"
require_relative "../seed_fixtures"
require "rackbench/reports/parts/full_label"

module Rackbench
  class FullLabelTest < Minitest::Test
    include SeedFixtures

    def full(config, label: "short") = Reports::FullLabel.for(cell(label, config))

    def test_a_config_reads_in_words_workers_threads_instances_sockets_and_proxy
      assert_equal "puma, 16 threads", full({ "server" => "puma", "threads" => 16 })
      assert_equal "puma, 2 workers x 8 threads", full({ "server" => "puma", "workers" => 2, "threads" => 8 })
      assert_equal "thin, 4 instances on Unix sockets, via nginx (3 workers, round-robin)",
                   full({ "server" => "thin", "instances" => 4, "bind" => "unix",
                          "proxy" => { "proxy" => "nginx", "workers" => 3 } })
      assert_equal "trinidad, 1 worker, rails app", full({ "server" => "trinidad", "workers" => 1, "app" => "rails" })
    end

    def test_other_knobs_are_named_so_two_configs_never_read_the_same
      assert_equal "puma, 4 workers, preload true", full({ "server" => "puma", "workers" => 4, "preload" => true })
    end

    def test_a_label_the_suite_chose_is_kept
      assert_equal "mine", full({ "server" => "puma", "label" => "mine" }, label: "mine")
    end
  end
end
