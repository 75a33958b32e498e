# frozen_string_literal: true

require "test_helper"
require "rackbench/charts/tune"

module Rackbench
  # A tune run's charts come from its stored answer: the rates over workers x
  # threads where it tried both, and each config's memory at its knee.
  class ChartsTuneTest < Minitest::Test
    def config(workers, threads, rate, pss_mb, **switches)
      knobs = { "server" => "puma", "workers" => workers, "threads" => threads }.merge(switches.transform_keys(&:to_s))
      { "config" => knobs, "label" => "puma x#{workers}:#{threads}", "sustainable_rate" => rate,
        "pss_bytes" => pss_mb && (pss_mb * 1_048_576) }
    end

    def tune_run(configs) = { "settings" => { "tune_answer" => { "slo" => "p99 <= 100 ms", "configs" => configs } } }

    def test_a_space_of_workers_and_threads_draws_a_heat_map_and_the_memory_at_each_knee
      configs = [config(0, 4, 120.4, 80), config(2, 4, 230.0, 150), config(0, 8, 130.0, 82), config(2, 8, nil, nil)]
      charts = Charts::Tune.new(tune_run(configs), []).charts
      assert_equal(%w[tune-heat-map tune-memory], charts.map { |c| c["name"] })
      heat = charts.first["spec"]["data"]["values"]
      assert_equal [120.4, 230.0, 130.0], heat.map { |v| v["rate"] }, "a config that met no rate is not a cell of the map"
      assert_equal([80.0, 150.0, 82.0], charts.last["spec"]["data"]["values"].map { |v| v["pss_mb"] })
    end

    def test_one_knob_varied_draws_no_heat_map_and_switches_name_the_variant
      configs = [config(0, 4, 100.0, nil), config(0, 4, 110.0, nil, yjit: true)]
      tune = Charts::Tune.new(tune_run(configs), [])
      assert_empty tune.charts, "no heat map from one cell, no memory without PSS, no probes"
      assert_equal(%w[plain yjit], tune.configs.map { |c| c["variant"] })
      assert_equal([0, 0], tune.configs.map { |c| c["workers"] })
    end

    def test_any_other_run_has_no_tune_charts
      assert_empty Charts::Tune.new({ "settings" => {} }, []).charts
    end
  end
end
