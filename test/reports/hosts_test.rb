# frozen_string_literal: true

require "test_helper"

module Rackbench
  # rackbench report --format hosts: each load host's share of a cell.
  class HostsReportTest < Minitest::Test
    def measurement(hosts)
      parts = hosts.map do |name, requests, share|
        Result.new(engine: "native", requests: requests, histogram: [[1000, requests - 1], [9000, 1]])
              .to_h.merge("host" => name, "client_cpu" => { "max_thread_share" => share }, "clock_offset_s" => 0.0021,
                          "host_cpu_busy_share" => 0.5)
      end
      result = Result.new(engine: "native", requests: parts.sum { |p| p["requests"] }, hosts: parts)
      repeat = Measurement::Repeat.new(index: 1, deployment: 1, round: 1, result: result, resources: {}, noise: nil)
      row = { "label" => "puma x0:2", "server" => "puma", "endpoint" => "hello", "path" => "/hello", "concurrency" => 4,
              "status" => "ok", "engine" => "native" }
      Measurement.new(row, [repeat])
    end

    def run_row = { "id" => 3, "suite" => "across", "status" => "finished", "settings" => {}, "machine" => {}, "pinning" => {} }

    def test_each_host_gets_its_requests_share_p99_cpu_and_offset
      text = Reports.fetch("hosts").new(run_row, [measurement([["load1", 300, 0.97], ["load2", 100, 0.4]])]).render
      assert_match(/1 +load1 +300 +75\.0% +1\.00 +97 % +50 % +2\.10/, text)
      assert_match(/1 +load2 +100 +25\.0% +1\.00 +40 % +50 % +2\.10/, text)
    end

    def test_a_run_without_load_hosts_says_so
      text = Reports.fetch("hosts").new(run_row, [measurement([])]).render
      assert_match "No cell of run 3 was loaded from several hosts", text
    end
  end
end
