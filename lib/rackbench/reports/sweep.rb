# frozen_string_literal: true

require_relative "../article/summary"
require_relative "parts/full_label"
require_relative "parts/side_by_side"

module Rackbench
  module Reports
    # The concurrency sweep of 003_766978340d4031d9.txt as tables: for each
    # endpoint, req/s and mean response time (rows: server configs, columns:
    # concurrency levels); then "tuning Puma": every endpoint at the highest
    # level, configs side by side (one row per config when that is too wide).
    # Configs are named in full (FullLabel).
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
        rows = list.group_by(&:label).map do |_, fs|
          [FullLabel.for(fs.first.measurement)] + levels.map do |c|
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

        configs = at_top.group_by(&:label).values
        endpoints = at_top.map { |f| f.cell["endpoint"] }.uniq
        values = endpoints.map do |endpoint|
          configs.map { |list| tuning_value(list.find { |f| f.cell["endpoint"] == endpoint }) }
        end
        names = configs.map { |list| FullLabel.for(list.first.measurement) }
        table = SideBySide.new("endpoint", endpoints, names, values).render
        "#### Configurations side by side at concurrency #{top} (req/s)\n#{table}"
      end

      def tuning_value(figure)
        return "" unless figure

        figure.ok? ? format("%.1f", figure.requests_per_s) : "failed"
      end

      def table(headers, rows) = Grid.new(headers, rows).markdown(padded: true)
    end

    register("sweep", Sweep)
  end
end
