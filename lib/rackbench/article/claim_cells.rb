# frozen_string_literal: true

module Rackbench
  module Article
    # How a Claim finds its cells in a run: the endpoint (name or path) and
    # concurrency it names, a and b matched as subsets of each cell's config,
    # the article's values mapped through the run's scaling (--scale, --smoke).
    # Included in Claim.
    module ClaimCells
      # The Figures of a and b (nil where no cell matches).
      def pair = [find(spec["a"]), find(spec["b"])]

      def endpoint = spec["endpoint"]

      # The level the claim is about: the article's, mapped; else the endpoint's highest.
      def concurrency
        return map("concurrency", spec["concurrency"]) if spec["concurrency"]

        cells.select { |c| on_endpoint?(c) }.map { |c| c["concurrency"] }.max
      end

      # Whether the run's scaling moved the article's level (or another knob
      # of the claim) to another value: {"concurrency" => [500, 100]}.
      def scaled_away
        spec.slice("concurrency").to_h { |k, v| [k, [v, map(k, v)]] }.reject { |_, (from, to)| from == to }
      end

      def find(match)
        cell = cells.find { |c| at_level?(c) && subset?(scaled_match(match || {}), c["config"] || {}) }
        cell && Figures.new(cell)
      end

      # Every cell of the claim's endpoint, level and app as a's, but a's own.
      def others_at_level(figure)
        app = figure.cell["config"]&.dig("app")
        cells.select { |c| at_level?(c) && c["config"]&.dig("app") == app && c["label"] != figure.label }
             .map { |c| Figures.new(c) }
      end

      # The cells a match finds at every level of the endpoint.
      def at_every_level(match)
        cells.select { |c| on_endpoint?(c) && subset?(scaled_match(match), c["config"] || {}) }.map { |c| Figures.new(c) }
      end

      def matches?(figure, match) = subset?(scaled_match(match), figure.cell["config"] || {})

      # The cells the claim reads at its level: a, b, and a leader's (or
      # trailer's) rivals, listed or all of a's app there (ClaimLooks keeps
      # these measured until the claim is settled).
      def involved
        here = cells.select { |c| at_level?(c) }
        named = here.select { |c| spec.values_at("a", "b").compact.any? { |match| config_matches?(c, match) } }
        return named unless %w[leads trails].include?(kind) && (a = named.first)

        (named + rivals_of(a, here)).uniq
      end

      private

      def on_endpoint?(cell) = endpoint.nil? || [cell["endpoint"], cell["path"]].include?(endpoint)

      def at_level?(cell) = on_endpoint?(cell) && cell["concurrency"] == concurrency

      # The cells at a's level with a's app that the claim's rivals: match (all of them without it).
      def rivals_of(a, here)
        same_app = here.select { |c| c["config"]&.dig("app") == a["config"]&.dig("app") }
        listed = spec["rivals"]
        listed ? same_app.select { |c| listed.any? { |match| config_matches?(c, match) } } : same_app
      end

      def config_matches?(cell, match) = subset?(scaled_match(match), cell["config"] || {})

      def subset?(match, config)
        match.all? do |k, v|
          v.is_a?(Hash) ? config[k].is_a?(Hash) && subset?(v, config[k]) : config[k] == v
        end
      end

      def scaled_match(match) = match.to_h { |k, v| [k, v.is_a?(Hash) ? v : map(k, v)] }

      def map(key, value) = @mapping.dig(key, value) || value

      # {"workers"=>{4=>2}, "concurrency"=>{500=>100}} from the run's data["scaled"]
      # (a change made for one endpoint only maps the claims on that endpoint).
      def mapping_from(scaled)
        changes = (scaled || {}).fetch("changes", [])
        mine = [endpoint, *cells.select { |c| c["path"] == endpoint }.map { |c| c["endpoint"] }]
        kept = changes.reject { |c| c["endpoint"] && !mine.include?(c["endpoint"]) }
        kept.each_with_object({}) do |change, map|
          (map[change["key"]] ||= {})[change["from"]] = change["to"]
        end
      end
    end
  end
end
