# frozen_string_literal: true

require "test_helper"

module Rackbench
  # Server starts as a results folder's latest runs measured them: the median
  # of each server's stored boot_s, read from the runs the store lists; the
  # adapter's typical start for a server no run measured.
  class BootHistoryTest < Minitest::Test
    # by_run: {run id => [[server, [boot_s or nil of each window]]]}; the latest run last.
    FakeStore = Struct.new(:by_run) do
      def runs(limit:) = by_run.keys.last(limit).reverse.map { |id| { "id" => id } }

      def boot_seconds(run_ids)
        run_ids.flat_map { |id| by_run.fetch(id) }.each_with_object(Hash.new { |h, k| h[k] = [] }) do |(server, boots), seen|
          seen[server].concat(boots.compact)
        end
      end
    end

    def measurement(server, boots) = [server, boots]

    def test_each_server_starts_at_the_median_of_its_measured_starts
      store = FakeStore.new({ 1 => [measurement("puma", [2.0, nil, 4.0])], 2 => [measurement("puma", [3.0])] })
      boots = BootHistory.of(store)
      assert_in_delta 3.0, boots.boot_s("puma")
      assert boots.measured?("puma")
    end

    def test_only_the_latest_runs_are_read
      store = FakeStore.new({ 1 => [measurement("puma", [40.0])], 2 => [measurement("puma", [2.0])] })
      assert_in_delta 2.0, BootHistory.of(store, runs: 1).boot_s("puma")
    end

    def test_a_server_no_run_measured_starts_at_its_adapters_typical_start
      boots = BootHistory.of(FakeStore.new({ 1 => [measurement("thin", [nil])] }))
      refute boots.measured?("thin")
      assert_equal Servers.fetch("thin").typical_boot_s, boots.boot_s("thin")
    end
  end
end
