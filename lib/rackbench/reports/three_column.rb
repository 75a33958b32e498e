# frozen_string_literal: true

require_relative "../article/summary"

module Rackbench
  module Reports
    # The tables of 002_233cd323458ca8b1.txt: one per app x endpoint x
    # concurrency, headed by the load command, with the article's three
    # columns: throughput, latency, errors n/tot. A server that could not run
    # keeps its row, with the reason.
    #
    #   rackbench report RUN --format three_column
    class ThreeColumn < Base
      HEADERS = ["App server", "Throughput (req/s)", "Latency (ms)", "Req. Errors (n/tot)"].freeze

      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        summary.groups.map { |group, list| section(summary, group, list) }.join("\n")
      end

      private

      def section(summary, group, list)
        out = "#### #{summary.title(group)}\n"
        command = summary.command_of(list)
        out << "```\n#{command}\n```\n" if command
        out << "| #{HEADERS.join(" | ")} |\n| :------------- | -----------------: | -----------: | ------------------: |\n"
        list.each { |f| out << "| #{row(f).join(" | ")} |\n" }
        out
      end

      def row(figure)
        return [figure.label, "-", "-", "not measured: #{figure.reason.to_s.lines.first&.strip}"] unless figure.ok?

        [figure.label, format("%.2f", figure.requests_per_s), format("%.2f", figure.latency_mean_ms), figure.errors_n_tot]
      end
    end

    register("three_column", ThreeColumn)
  end
end
