# frozen_string_literal: true

require_relative "../article/summary"

module Rackbench
  module Reports
    # The concurrency sweep of 003_766978340d4031d9.txt as tables: for each
    # endpoint, req/s and mean response time (rows: server configs, columns:
    # concurrency levels); then "tuning Puma": every endpoint at the highest
    # level, configs side by side.
    #
    #   rackbench report RUN --format sweep
    class Sweep < Base
      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        out = +""
        summary.groups(%w[app endpoint]).each do |group, list|
          out << "#### #{summary.title(group)}\n"
          out << grid("req/s", list) { |f| f.requests_per_s && format("%.1f", f.requests_per_s) }
          out << grid("mean response time (ms)", list) { |f| f.latency_mean_ms && format("%.1f", f.latency_mean_ms) }
          out << "\n"
        end
        out << tuning(summary)
      end

      private

      # Rows: labels; columns: concurrency levels; a failed cell reads "failed".
      def grid(what, list)
        levels = list.map { |f| f.cell["concurrency"] }.uniq.sort
        rows = list.group_by(&:label).map do |label, fs|
          [label] + levels.map do |c|
            f = fs.find { |x| x.cell["concurrency"] == c }
            next "" unless f

            f.ok? ? yield(f).to_s : "failed"
          end
        end
        table(["#{what} \\ concurrency", *levels.map(&:to_s)], rows)
      end

      def tuning(summary)
        top = cells.map { |c| c["concurrency"] }.max
        at_top = summary.figures.select { |f| f.cell["concurrency"] == top }
        return "" if at_top.empty?

        labels = at_top.map(&:label).uniq
        rows = at_top.group_by { |f| f.cell["endpoint"] }.map do |endpoint, fs|
          [endpoint] + labels.map do |l|
            f = fs.find { |x| x.label == l }
            if f.nil?
              ""
            else
              (f.ok? ? format("%.1f", f.requests_per_s) : "failed")
            end
          end
        end
        "#### Configurations side by side at concurrency #{top} (req/s)\n" + table(["endpoint", *labels], rows)
      end

      def table(headers, rows)
        widths = headers.each_index.map { |i| ([headers[i]] + rows.map { |r| r[i].to_s }).map(&:length).max }
        line = lambda { |cs|
          "| #{cs.each_with_index.map do |c, i|
            i.zero? ? c.to_s.ljust(widths[i]) : c.to_s.rjust(widths[i])
          end.join(" | ")} |\n"
        }
        line.call(headers) + "|#{widths.each_with_index.map do |w, i|
          i.zero? ? ":#{"-" * (w + 1)}" : "#{"-" * (w + 1)}:"
        end.join("|")}|\n" +
          rows.map(&line).join
      end
    end

    register("sweep", Sweep)
  end
end
