# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Capacity from real deployments: per-worker memory against requests
  # served, and the workers that fit a budget (a pure function of the
  # stored measurement; the run is real: unicorn workers on loopback).
  class CapacityTest < Minitest::Test
    include TestHelpers

    LEAKY = File.expand_path("../fixtures/capacity/config.ru", __dir__)

    def measure(app, endpoint = "/", server: { "server" => "unicorn", "workers" => 2 }, repeats: 3, duration_s: 1)
      path = write_suite("engine" => "native", "app" => app, "endpoints" => [endpoint], "concurrency" => [2],
                         "duration_s" => duration_s, "repeats" => repeats, "deployments" => 1, "max_cell_s" => 60,
                         "servers" => [server])
      store = Store.new(tmpdir)
      measurement = store.measurements(Runner.new(Suite.load(path), store: store).run).first
      assert measurement.ok?, measurement.reason
      measurement
    ensure
      store&.close
      assert_nothing_left
    end

    # The leaky app's unicorn run, measured once a file: the memory test and
    # the CPU-per-request test read the same three windows (a unicorn start
    # and 3 s of saturated load fewer than measuring /hello for the latter).
    def leaky_measurement
      self.class.leaky ||= measure(LEAKY)
    end

    class << self
      attr_accessor :leaky
    end

    def test_a_worker_that_keeps_memory_grows_with_requests_and_fewer_of_them_fit_a_smaller_budget
      measurement = leaky_measurement
      capacity = Capacity.new(measurement)
      first, last = capacity.points.values_at(0, -1)

      assert_equal 3, capacity.points.size
      assert_equal 2, last.workers
      assert_operator last.requests, :>, first.requests
      assert_operator last.worker_pss_bytes, :>, first.worker_pss_bytes
      assert_operator capacity.worker_pss_growth_mb_per_k_requests, :>, 0
      assert(measurement.repeats.all? { |r| r.resources["memory_series"].size >= 2 }, "samples through each window")
      first_window = measurement.repeats.min_by { |r| r.resources.dig("memory", "requests") }
      assert_operator first_window.resources["memory_series"].first.first, :<, 0, "the first window's series starts at the fork"
      from_mb, to_mb = capacity.worker_uss_mb_first_to_last
      assert_operator to_mb, :>, from_mb, "the workers' private memory grew from the first window's start"
      assert_nil capacity.workers_replaced, "unicorn keeps its workers"
      assert_match(/\A\d+ MB shared \+ [\d.]+ MB per worker after [\d,]+ requests\z/, capacity.memory_line)

      big = capacity.workers_fitting(Capacity.bytes("4GB"))
      small = capacity.workers_fitting(Capacity.bytes("512MB"))

      assert_operator big, :>, small
      assert_equal ((Capacity.bytes("4GB") - last.shared_bytes) / last.worker_uss_bytes).floor, big
      grid = Reports::CapacitySection.new([measurement], "memory" => "512MB").sections.first.parts.first

      assert_includes grid.titles, "workers in 512 MB"
      assert_equal small.to_s, grid.rows.first[grid.titles.index("workers in 512 MB")]
    end

    # A deployment whose two workers (pids 11, 12) are replaced by a new
    # generation (21, 22, and the mold 20) halfway through its second window:
    # the figures around the change come from the series, and the Capacity
    # section gets a column for them.
    def test_workers_replaced_while_serving_get_their_own_figures
      mb = 1024 * 1024
      window = lambda do |requests, series|
        memory = { "requests" => requests, "pss_bytes" => 60 * mb,
                   "workers" => [{ "pss_bytes" => 20 * mb, "uss_bytes" => series.last[2] }] }
        Measurement::Repeat.new(deployment: 1, result: Struct.new(:requests, :errors).new(1000, {}),
                                resources: { "memory" => memory, "memory_series" => series, "cpu_s" => 0.5 })
      end
      repeats = [window.call(1000, [[0.0, 20 * mb, 2 * mb, [11, 12]], [0.5, 21 * mb, 14 * mb, [11, 12]]]),
                 window.call(2000, [[0.0, 21 * mb, 15 * mb, [11, 12]], [0.5, 12 * mb, 4 * mb, [20, 21, 22]],
                                    [1.0, 13 * mb, 6 * mb, [20, 21, 22]]])]
      measurement = Struct.new(:repeats, :label, :endpoint, :concurrency, :ok?).new(repeats, "pitchfork x2", "/hello", 2, true)

      assert_equal({ "before_mb" => 15.0, "after_mb" => 4.0, "end_mb" => 6.0 }, Capacity.new(measurement).workers_replaced)
      grid = Reports::CapacitySection.new([measurement], {}).sections.first.parts.first

      assert_equal "15.0 -> 4.0 -> 6.0", grid.rows.first[grid.titles.index("worker USS MB: before -> after refork -> end")]
    end

    # A real pitchfork that promotes a worker to mold every 300 requests and
    # forks a new generation from it: the series sees its workers replaced.
    # (Every 1000 in a 2 s window needed 1000 req/s, which a machine at load
    # average 17 did not give: 362 req/s, its first refork 1.7 s into the
    # window and the new workers 1.3 s later. 4 s holds both at 250 req/s.)
    def test_a_reforking_pitchfork_has_its_workers_replaced_in_the_series
      server = { "server" => "pitchfork", "workers" => 2, "refork_after" => [300] }
      measurement = measure("rack", "/hello", server: server, repeats: 1, duration_s: 4)
      replaced = Capacity.new(measurement).workers_replaced

      refute_nil replaced, "pids through the window: #{measurement.repeats.first.resources["memory_series"].map(&:last)}"
      assert(replaced.values.all?(&:positive?), replaced.to_s)
    end

    def test_cpu_per_request_and_cost_follow_from_the_windows
      measurement = leaky_measurement
      capacity = Capacity.new(measurement, "price_per_hour" => 0.36, "cpus" => 4)
      cpu_s = measurement.repeats.sum { |r| r.resources["cpu_s"] }

      assert_in_delta cpu_s * 1000 / capacity.good_requests, capacity.cpu_ms_per_request, 1e-9
      assert_in_delta 0.36 / (4 * 3_600_000 / capacity.cpu_ms_per_request) * 1e6, capacity.cost_per_million, 1e-12
    end

    # Two server starts, each a worker growing 1 MB per 1000 requests from its own baseline
    # (the second's 10 MB higher): the growth is each start's own, never from one start to the other.
    def test_growth_is_measured_within_each_deployment_not_across_starts
      mb = 1024 * 1024
      snapshot = lambda do |start, requests, worker_mb|
        bytes = worker_mb * mb
        memory = { "requests" => requests, "pss_bytes" => bytes, "workers" => [{ "pss_bytes" => bytes, "uss_bytes" => bytes }] }
        Measurement::Repeat.new(deployment: start, resources: { "memory" => memory })
      end
      repeats = [snapshot.call(1, 1000, 20), snapshot.call(1, 3000, 22), snapshot.call(2, 1000, 30), snapshot.call(2, 4000, 33)]
      capacity = Capacity.new(Struct.new(:repeats).new(repeats))

      assert_in_delta 1.0, capacity.worker_pss_growth_mb_per_k_requests, 1e-9
      assert_equal [2, 4000], [capacity.last.start, capacity.last.requests], "the figures of the start that served most"
    end

    def test_settings_are_read_as_numbers_and_a_bad_one_is_named
      assert_equal({ "memory" => 2 * (1024**3), "cpus" => 4 }, Capacity.settings("memory" => "2GB", "cpus" => 4) { flunk })
      error = assert_raises(ConfigError) { Suite.load(write_suite("capacity" => { "memory" => "lots" })) }

      assert_match(/suite.yml:\d+: capacity.memory must be a size like 512MB/, error.message)
    end
  end
end
