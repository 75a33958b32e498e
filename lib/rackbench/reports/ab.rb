# frozen_string_literal: true

require_relative "../article/summary"

module Rackbench
  module Reports
    # ApacheBench's report, as 001_466a5bc59083a463.txt and
    # 004_d5fd84afbf770cf8.txt print it, for every cell; then 004's comparison:
    # one line per figure with each config's value side by side.
    #
    #   rackbench report RUN --format ab
    class Ab < Base
      COMPARED = [
        ["Requests per second", :requests_per_s], ["Time taken for tests (s)", :total_time_s],
        ["Transfer rate (KB/s)", :transfer_kb_per_s], ["Longest request (ms)", :longest_ms],
        ["Server load (cores busy)", :server_load], ["Memory under load (MB)", :memory_mb]
      ].freeze

      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        out = summary.figures.map { |f| block(f) }.join("\n")
        summary.groups(%w[app endpoint concurrency]).each do |group, list|
          out << "\n#{comparison(summary.title(group), list)}" if list.size > 1
        end
        out
      end

      private

      def block(f)
        head = "--- #{f.label} ---\nDocument Path:          #{f.cell["path"]}\nConcurrency Level:      #{f.cell["concurrency"]}\n"
        return "#{head}Not measured:           #{f.reason}\n" unless f.ok?

        head + <<~TEXT + percentile_table(f)
          Time taken for tests:   #{fmt3(f.total_time_s)} seconds
          Complete requests:      #{f.requests}
          Failed requests:        #{f.errors}
          Total transferred:      #{f.bytes} bytes
          Requests per second:    #{fmt2(f.requests_per_s)} [#/sec] (mean)
          Time per request:       #{fmt3(f.latency_mean_ms)} [ms] (mean)
          Time per request:       #{fmt3(f.time_per_request_across_ms)} [ms] (mean, across all concurrent requests)
          Transfer rate:          #{fmt2(f.transfer_kb_per_s)} [Kbytes/sec] received
          Server load:            #{fmt2(f.server_load)} cores busy (server CPU time / wall time)
          Memory under load:      #{fmt2(f.memory_mb)} MB (PSS, max, #{f.processes} processes)

        TEXT
      end

      def percentile_table(f)
        rows = f.percentiles_ms.map do |p, ms|
          format("%4d%%  %6s%s\n", p, ms.round.to_s, p == 100 ? " (longest request)" : "")
        end
        "Percentage of the requests served within a certain time (ms)\n#{rows.join}"
      end

      def comparison(title, list)
        width = [list.map { |f| f.label.length }.max, 10].max
        out = "#### #{title}: side by side\n"
        out << format("%-26s%s\n", "", list.map { |f| f.label.rjust(width) }.join("  "))
        COMPARED.each do |name, reader|
          values = list.map { |f| (f.ok? ? fmt2(f.public_send(reader)) : "n/a").rjust(width) }
          out << format("%-26s%s\n", name, values.join("  "))
        end
        out
      end

      def fmt2(v) = v.nil? ? "-" : format("%.2f", v)
      def fmt3(v) = v.nil? ? "-" : format("%.3f", v)
    end

    register("ab", Ab)
  end
end
