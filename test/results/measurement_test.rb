# frozen_string_literal: true

require "test_helper"
require_relative "../reports/seed_fixtures"

module Rackbench
  class MeasurementTest < Minitest::Test
    include SeedFixtures

    def repeat_with(index:, rps:, histogram: [[1000, 10]], resources: { "pss_max_bytes" => 10 * 1_048_576 }, noise: nil,
                    warnings: [], errors: {}, deployment: 1)
      result = Result.new(engine: "native", requests: 10, duration_s: 10 / rps, requests_per_s: rps, histogram: histogram,
                          warnings: warnings, errors: errors)
      Measurement::Repeat.new(index: index, deployment: deployment, round: index, result: result, resources: resources,
                              noise: noise)
    end

    def measurement(repeats) = Measurement.new({ "label" => "puma", "status" => "ok" }, repeats)

    def test_throughput_is_the_geometric_mean_over_server_starts_inside_its_t_interval
      m = measurement([repeat_with(index: 1, rps: 90.0, deployment: 1), repeat_with(index: 2, rps: 130.0, deployment: 2),
                       repeat_with(index: 3, rps: 100.0, deployment: 3)])
      assert_in_delta((90.0 * 130 * 100)**(1 / 3.0), m.requests_per_s, 1e-9)
      logs = [90.0, 130.0, 100.0].map { |x| Math.log(x) }
      half = StudentT.critical(0.95, 2) * Stats.stddev(logs) / Math.sqrt(3)
      assert_in_delta m.requests_per_s * Math.exp(half), m.requests_per_s_ci.high, 1e-9
      assert m.requests_per_s_ci.cover?(m.requests_per_s)
    end

    def test_windows_of_one_start_give_no_interval
      m = measurement([repeat_with(index: 1, rps: 90.0), repeat_with(index: 2, rps: 130.0)])
      assert_nil m.requests_per_s_ci
    end

    def test_a_p99_interval_comes_from_each_starts_own_p99_and_holds_its_figure
      slow = [[1000, 980], [9000, 20]]
      fast = [[1000, 980], [3000, 20]]
      m = measurement([repeat_with(index: 1, rps: 1.0, histogram: slow, deployment: 1),
                       repeat_with(index: 2, rps: 1.0, histogram: fast, deployment: 2),
                       repeat_with(index: 3, rps: 1.0, histogram: slow, deployment: 3)])
      ci = m.latency_ci_ms(99)
      assert ci.cover?(m.latency_ms(99)), "the figure #{m.latency_ms(99)} lies inside [#{ci.low}, #{ci.high}]"
      assert_operator ci.low, :<, 3.0
      assert_operator ci.high, :>, 9.0
    end

    def test_a_percentile_needs_enough_requests_behind_it
      m = measurement([repeat_with(index: 1, rps: 1.0, histogram: [[1000, 145]])])
      refute m.estimable?(99), "145 requests leave fewer than 10 beyond p99"
      assert m.estimable?(90)
      assert_equal 90, m.highest_estimable_percentile
    end

    def test_latency_percentiles_come_from_the_merged_histogram_of_all_repeats
      m = measurement([repeat_with(index: 1, rps: 1.0, histogram: [[1000, 98], [50_000, 2]]),
                       repeat_with(index: 2, rps: 1.0, histogram: [[2000, 100]])])
      assert_equal 2.0, m.latency_ms(50), "half of the 200 latencies are at or below 2 ms"
      assert_equal 2.0, m.latency_ms(99)
      assert_equal 50.0, m.latency_ms(100)
    end

    def test_errors_add_up_over_repeats_and_count_against_attempts
      m = measurement([repeat_with(index: 1, rps: 1.0, errors: { "timeout" => 2 }),
                       repeat_with(index: 2, rps: 1.0, errors: { "status" => 3 })])
      assert_equal 5, m.errors
      assert_equal 22, m.attempted, "timeouts are attempts without a response; 5xx responses are among the 20"
      assert_equal "5/22", m.errors_n_tot
    end

    def test_memory_is_labelled_rss_when_a_repeat_could_not_read_pss
      m = measurement([repeat_with(index: 1, rps: 1.0),
                       repeat_with(index: 2, rps: 1.0, resources: { "rss_max_bytes" => 30 * 1_048_576 })])
      assert_equal "RSS", m.memory_kind
      assert_equal 30.0, m.memory_mb
      assert(m.warnings.any? { |w| w.kind == "memory" })
    end

    def test_other_processes_on_the_measured_cpus_become_a_warning_with_advice
      busy = { "other_cpu_share" => 0.35, "steal_share" => 0.0 }
      m = measurement([repeat_with(index: 1, rps: 1.0, noise: busy), repeat_with(index: 2, rps: 1.0, noise: busy)])
      warning = m.warnings.find { |w| w.kind == "noise" }
      assert_match "other processes used 35 %", warning.message
      assert_match "re-run on a quiet machine", warning.advice
    end

    def test_throughput_falling_window_after_window_is_a_drift_warning_and_a_sawtooth_is_not
      falling = [1000, 900, 780, 700, 610, 520].each_with_index.map do |rps, i|
        repeat_with(index: i + 1, rps: rps.to_f).tap { |r| r.started_at = "2026-11-23T10:00:0#{i}Z" }
      end
      warning = measurement(falling).warnings.find { |w| w.kind == "drift" }
      assert_match(/\Athroughput fell \d+ % over 6 windows/, warning.message)
      assert_match "reset_each: window", warning.advice
      sawtooth = [1000, 800, 990, 810, 1005, 790].each_with_index.map do |rps, i|
        repeat_with(index: i + 1, rps: rps.to_f).tap { |r| r.started_at = "2026-11-23T10:00:0#{i}Z" }
      end
      assert_nil(measurement(sawtooth).warnings.find { |w| w.kind == "drift" }, "each start resets the data")
    end

    def test_the_noise_warning_names_the_busiest_other_processes_and_dependencies_show_beside_the_server
      busy = { "other_cpu_share" => 0.35, "other_busiest" => [{ "command" => "postgres", "pid" => 812, "cpu_percent" => 30.4 }] }
      deps = { "cpu_percent" => 40.0, "pss_max_bytes" => 71 * 1_048_576,
               "dependencies" => { "redis" => { "cpu_percent" => 12.0, "pss_max_bytes" => 8 * 1_048_576, "cpus_seen" => [1] } } }
      m = measurement([repeat_with(index: 1, rps: 1.0, noise: busy, resources: deps)])
      assert_match "(worst repeat; busiest: postgres 30 %)", m.warnings.find { |w| w.kind == "noise" }.message
      assert_equal "server 40 % CPU, 71 MB; redis 12 % CPU, 8 MB", m.resources_text
      assert_equal [1], m.to_h["dependencies"]["redis"]["cpus_seen"]
    end

    def test_an_engine_warning_says_in_how_many_repeats_it_came
      m = measurement([repeat_with(index: 1, rps: 1.0, warnings: ["client CPU saturated"]), repeat_with(index: 2, rps: 1.0)])
      assert_equal ["client CPU saturated (in 1 of 2 repeats)"], m.warnings.select { |w| w.kind == "engine" }.map(&:message)
    end

    def test_a_failed_cell_has_no_figures
      m = Measurement.new({ "label" => "thin", "status" => "failed", "reason" => "crashed" }, [])
      refute m.ok?
      assert_nil m.requests_per_s
      assert_empty m.warnings
    end
  end
end
