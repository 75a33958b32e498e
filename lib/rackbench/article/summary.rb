# frozen_string_literal: true

require_relative "figures"
require_relative "claim"

module Rackbench
  # The seed articles (/work/shared/seeds, see each built-in seed suite's
  # `article:` block) as data a report can put next to a stored run.
  module Article
    # What a seed report needs from one stored run: the article's own words,
    # what was scaled, the claims checked, and the cells as Figures grouped the
    # way the articles group their tables. Created by the seed report formats
    # (article, three-column, ab, sweep, svg, html) from Store#run and Store#cells.
    class Summary
      attr_reader :run, :cells

      def initialize(run, cells)
        @run = run
        @cells = cells
      end

      def settings = run["settings"] || {}
      def article = settings["article"] || {}
      def scaled = settings["scaled"]

      # "concurrency 500 -> 100, 250 -> 50; duration_s 30 -> 10", or nil. A
      # change made for one endpoint names it ("concurrency of sleep 500 ->
      # 100"), workers scaled by CPUs say by how many, and the block's note follows.
      def scaled_text
        changes = scaled&.dig("changes") || []
        return nil if changes.empty?

        by_key = changes.group_by { |c| [c["key"], c["endpoint"]] }.map do |(key, endpoint), list|
          "#{key}#{" of #{endpoint}" if endpoint} #{list.map { |c| "#{show(c["from"])} -> #{show(c["to"])}" }.join(", ")}" \
            "#{by_cpus_text if scaled["cpus"] && key == "workers"}"
        end
        text = "#{scaled["by"] == "smoke" ? "Smoke run (--smoke)" : "Scaled for this machine (--scale)"}: #{by_key.join("; ")}"
        scaled["note"] ? "#{text}. #{scaled["note"]}" : text
      end

      # " (by CPUs: the server's 2, not pinned, against the article's 4)"
      def by_cpus_text
        cpus = scaled["cpus"]
        " (by CPUs: the server's #{cpus["server"]}, #{cpus["pinned"] ? "pinned" : "not pinned"}, " \
          "against the article's #{cpus["article"]})"
      end

      def verdicts
        (article["claims"] || []).map { |spec| Claim.new(spec, cells, scaled: scaled, server_cpus: server_cpus).verdict }
      end

      # The CPUs the server could run on: its pinned set, else every core (shared with the load generator).
      def server_cpus = run.dig("pinning", "server_cpus")&.size || run.dig("machine", "cores")

      def pinned? = !run.dig("pinning", "server_cpus").nil?

      # "The article's machine: 4 cores (8 hyper-threads), ab on it. Here the server had 1 CPU, pinned
      # (the load generator on another)." from the article's machine: (and cpus:), or nil.
      def cpus_text
        return nil unless article["machine"] && server_cpus

        here = "#{server_cpus} CPU#{"s" unless server_cpus == 1}"
        how = pinned? ? "pinned (the load generator on another)" : "not pinned (shared with the load generator)"
        "The article's machine: #{article["machine"]}. Here the server had #{here}, #{how}."
      end

      def figures = cells.map { |c| Figures.new(c) }

      # [[{"app"=>, "endpoint"=>, "concurrency"=>, "rate"=>}, [Figures]]] in
      # plan order; rate is a rate sweep's offered rate (else nil).
      def groups(keys = %w[app endpoint concurrency rate])
        figures.group_by { |f| keys.to_h { |k| [k, key_of(f, k)] } }.to_a
      end

      def key_of(figure, key)
        case key
        when "app" then figure.cell.dig("config", "app") || settings["app"]
        when "rate" then figure.cell["offered_rate_per_s"]
        else figure.cell[key]
        end
      end

      # "Sinatra /primes/10 at concurrency 500" for a group's header; "..., 200 req/s offered" in a rate sweep.
      def title(group)
        text = [group["app"], group["endpoint"],
                group["concurrency"] && "at concurrency #{group["concurrency"]}"].compact.join(" ")
        group["rate"] ? "#{text}, #{format("%g", group["rate"])} req/s offered" : text
      end

      # The engine argv of the first measured cell of a group, as one shell line.
      def command_of(list)
        argv = list.find(&:ok?)&.cell&.dig("engine_command")
        argv.is_a?(Array) ? argv.join(" ") : argv
      end

      def failures
        figures.reject(&:ok?).uniq { |f| [f.label, f.reason] }
      end

      private

      def show(value) = value.is_a?(Array) ? "[#{value.join(", ")}]" : value.to_s
    end
  end
end
