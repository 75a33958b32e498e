# frozen_string_literal: true

require "test_helper"

module Rackbench
  # A CellKey is a cell's identity as fields: its label is rendered from
  # them, and a stored row gives the same key back.
  class CellKeyTest < Minitest::Test
    def key(rate = nil)
      CellKey.build({ "server" => "puma", "threads" => 4 }, endpoint: { "name" => "hello", "path" => "/hello" },
                                                            concurrency: 8, offered_rate_per_s: rate, variant: 1)
    end

    def test_the_label_is_the_configs_and_a_rate_sweep_adds_the_offered_rate
      assert_equal "puma x0:4", key.label
      assert_equal "puma x0:4 @ 250 req/s", key(250).label
      assert_equal "puma x0:4 @ 0.5 req/s", key(0.5).label
    end

    def test_its_columns_read_back_as_the_same_key
      columns = key(250).columns
      assert_equal "puma x0:4 @ 250 req/s", columns["label"]
      assert_equal key(250), CellKey.from_row(columns)
    end

    def test_a_config_with_its_own_label_keeps_it
      own = CellKey.build({ "server" => "puma", "label" => "tuned" }, endpoint: { "name" => "/", "path" => "/" },
                                                                      concurrency: 1, offered_rate_per_s: 10, variant: 2)
      assert_equal "tuned @ 10 req/s", own.label
    end
  end
end
