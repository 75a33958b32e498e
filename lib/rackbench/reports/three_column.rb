# frozen_string_literal: true

require_relative "../article/summary"
require_relative "parts/failures"
require_relative "parts/full_label"

module Rackbench
  module Reports
    # The tables of 002_233cd323458ca8b1.txt: one per app x endpoint x
    # concurrency, headed by the load command, with the article's three
    # columns: throughput, latency, errors n/tot. Configs are named in full
    # (FullLabel). A server that could not run keeps its rows, its reason
    # given in the first (FailureNotes).
    #
    #   rackbench report RUN --format three_column
    class ThreeColumn < Base
      include FailureNotes

      HEADERS = ["App server", "Throughput (req/s)", "Latency (ms)", "Req. Errors (n/tot)"].freeze

      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        summary.groups.map { |group, list| section(summary, group, list) }.join("\n")
      end

      private

      def section(summary, group, list)
        out = "#### #{summary.title(group)}\n"
        command = summary.command_of(list)
        out << "```\n#{portable(command)}\n```\n" if command
        out << Grid.new(HEADERS, list.map { |f| row(f) }).markdown
      end

      # The load command without this machine's folders and ports, which say
      # nothing to a reader elsewhere (the json report keeps them).
      def portable(command)
        command.gsub(%r{(?<=\A|\s)/\S*/([^/\s]+)}, '\1').gsub(%r{unix:/\S*/([^/\s:]+)}, 'unix:\1')
               .gsub(/(127\.0\.0\.1|localhost):\d+/, '\1:PORT')
      end

      def row(figure)
        label = FullLabel.for(figure.measurement)
        return [label, "-", "-", failure_notes.text(figure.measurement)] unless figure.ok?

        [label, format("%.2f", figure.requests_per_s), format("%.2f", figure.latency_mean_ms), figure.errors_n_tot]
      end
    end

    register("three_column", ThreeColumn)
  end
end
