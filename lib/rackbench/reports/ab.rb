# frozen_string_literal: true

require_relative "../article/summary"
require_relative "parts/failures"
require_relative "parts/full_label"
require_relative "parts/side_by_side"

module Rackbench
  module Reports
    # ApacheBench's report, as 001_466a5bc59083a463.txt and
    # 004_d5fd84afbf770cf8.txt print it, for every cell (in a code block);
    # then 004's comparison: one line per figure with each config's value
    # side by side (SideBySide: one line per config when that is too wide).
    # Configs are named in full; a failed server's reason is given once.
    #
    #   rackbench report RUN --format ab
    class Ab < Base
      include FailureNotes

      # [figure, its name when it heads a column, reader]
      COMPARED = [
        ["Requests per second", "req/s", :requests_per_s], ["Time taken for tests (s)", "total s", :total_time_s],
        ["Transfer rate (KB/s)", "KB/s", :transfer_kb_per_s], ["Longest request (ms)", "longest ms", :longest_ms],
        ["Server load (cores busy)", "cores busy", :server_load], ["Memory under load (MB)", "memory MB", :memory_mb]
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

      def block(fig) = "```text\n#{ab_text(fig)}```\n"

      def ab_text(f) # rubocop:disable Naming/MethodParameterName -- f reads as the figures in the template below
        head = "--- #{FullLabel.for(f.measurement)} ---\nDocument Path:          #{f.cell["path"]}\n" \
               "Concurrency Level:      #{f.cell["concurrency"]}\n"
        return "#{head}Not measured:           #{failure_notes.reason(f.measurement) || "(reason above)"}\n" unless f.ok?

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

      def percentile_table(fig)
        rows = fig.percentiles_ms.map do |p, ms|
          format("%4d%%  %6s%s\n", p, ms.round.to_s, p == 100 ? " (longest request)" : "")
        end
        "Percentage of the requests served within a certain time (ms)\n#{rows.join}"
      end

      def comparison(title, list)
        values = COMPARED.map { |_, _, reader| list.map { |f| f.ok? ? fmt2(f.public_send(reader)) : "n/a" } }
        table = SideBySide.new("", COMPARED.map(&:first), list.map { |f| FullLabel.for(f.measurement) }, values,
                               short_rows: COMPARED.map { |_, short, _| short }).render
        "#### #{title}: side by side\n#{table}"
      end

      def fmt2(v) = v.nil? ? "-" : format("%.2f", v)
      def fmt3(v) = v.nil? ? "-" : format("%.3f", v)
    end

    register("ab", Ab)
  end
end
