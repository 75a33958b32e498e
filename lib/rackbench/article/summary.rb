# frozen_string_literal: true

require "time"
require_relative "figures"
require_relative "claim"
require_relative "printed"

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

      def claim_specs = article["claims"] || []

      # Each claim's Answer, in the suite's order; decided with the run's margin.
      def answers
        @answers ||= claim_specs.map do |spec|
          Claim.new(spec, cells, scaled: scaled, server_cpus: server_cpus, margin: settings["margin"]).answer
        end
      end

      # Whether an answer agrees with the article, which made the claim:
      # :agrees (yes; equivalent on a ties claim), :disagrees (no; equivalent
      # where the article saw a difference), :not_settled or :cannot_show_here.
      def agreement(answer)
        case answer.outcome
        when :yes then :agrees
        when :equivalent then answer.kind == "ties" ? :agrees : :disagrees
        when :no then :disagrees
        else answer.outcome
        end
      end

      # The article's own figures (article: printed:), matched to this run's cells; nil without them.
      def printed = article["printed"] && Printed.new(article["printed"], cells, scaled: scaled)

      # "AMD EPYC, 2 cores" from the run's machine.
      def machine_text
        machine = run["machine"] || {}
        [machine["cpu_model"], machine["cores"] && "#{machine["cores"]} cores"].compact.join(", ").then { |t| t.empty? ? nil : t }
      end

      # "Load average (1 min): 3.1 at the start; 2.4-4.0 over the windows (median 3.2)", or nil.
      def load_text
        start = run.dig("machine", "loadavg")&.first
        windows = cells.flat_map { |c| c.repeats.filter_map { |r| r.noise&.dig("loadavg_1m") } }.sort
        parts = [start && "#{start} at the start",
                 windows.any? && format("%.1f-%.1f over the windows (median %.1f)", windows.first, windows.last,
                                        Stats.median(windows))].select { |p| p }
        parts.empty? ? nil : "load average (1 min) #{parts.join(", ")}"
      end

      # "wall time 12 min 5 s" from the run's start to its end, or nil; a
      # resumed run's without the time it stood stopped ("paused", Store#reopen_run).
      def wall_text
        started, finished = run.values_at("started_at", "finished_at").map { |t| t && Time.iso8601(t) }
        return nil unless started && finished

        paused = settings["paused"].to_a.sum { |p| Time.iso8601(p["to"]) - Time.iso8601(p["from"]) }
        text = "wall time #{minutes_text(finished - started - paused)}"
        paused.positive? ? "#{text} (stopped and resumed; the #{minutes_text(paused)} between not counted)" : text
      end

      def minutes_text(seconds) = "#{seconds.round / 60} min #{seconds.round % 60} s"

      # "Wall time 12 min 5 s; load average (1 min) 3.1 at the start, ...", or nil.
      def conditions_text
        text = [wall_text, load_text].compact.join("; ")
        text.empty? ? nil : text.sub(/\A./, &:upcase)
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

      # [1, 50]; "15 entries" for a list of server entries a scale: block replaced.
      def show(value)
        return "#{value.size} entries" if value.is_a?(Array) && value.first.is_a?(Hash)

        value.is_a?(Array) ? "[#{value.join(", ")}]" : value.to_s
      end
    end
  end
end
