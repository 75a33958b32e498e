# frozen_string_literal: true

module Rackbench
  module Article
    # One finding of a seed article, checked against a stored run. Created by
    # the seed report formats from the suite's `article: claims:` list:
    #
    #   - says: Puma x4:10 beats Unicorn x4 on /sleep at concurrency 50
    #     kind: beats              # beats | ties | leads | no_errors | warms_up
    #     metric: requests_per_s   # any Figures::METRICS name (default requests_per_s)
    #     a: {server: puma, workers: 4, threads: 10}   # matched against each cell's config
    #     b: {server: unicorn, workers: 4}
    #     endpoint: /sleep/2000
    #     concurrency: 50          # default: the highest level measured for the endpoint
    #
    # Knob values and concurrency are written as in the article; when the run
    # was scaled (--scale, --smoke) they are mapped the same way its suite was.
    # #verdict => {"says"=>, "answer"=>"yes"|"no"|"not measured", "detail"=>, "sentence"=>}
    class Claim
      KINDS = %w[beats ties leads no_errors warms_up].freeze

      def initialize(spec, cells, scaled: nil)
        @spec = spec
        @cells = cells
        @mapping = mapping_from(scaled)
        @metric = spec.fetch("metric", "requests_per_s")
        _, @better, = Figures::METRICS.fetch(@metric) { raise ConfigError, "claim #{says.inspect}: unknown metric #{@metric.inspect}" }
        raise ConfigError, "claim #{says.inspect}: kind must be one of #{KINDS.join(", ")}" unless KINDS.include?(kind)
      end

      def says = @spec["says"].to_s
      def kind = @spec.fetch("kind", "beats")

      def verdict
        answer, detail = public_send("check_#{kind}")
        { "says" => says, "answer" => answer, "detail" => detail, "sentence" => "#{says}: #{answer}, #{detail}" }
      end

      def check_beats
        a, b = pair
        return unmeasured(a, b) unless a&.ok? && b&.ok?

        ratio = ratio(a, b)
        [ratio > 1 ? "yes" : "no", "#{format_ratio(ratio)} (#{show(a)} vs #{show(b)})"]
      end

      def check_ties
        a, b = pair
        return unmeasured(a, b) unless a&.ok? && b&.ok?

        tolerance = @spec.fetch("tolerance", 0.1)
        apart = (value(a) - value(b)).abs / [value(a), value(b)].max.to_f
        [apart <= tolerance ? "yes" : "no",
         "#{(apart * 100).round}% apart, tolerance #{(tolerance * 100).round}% (#{show(a)} vs #{show(b)})"]
      end

      def check_leads
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        rivals = level_cells(a).reject { |c| c.label == a.label }
        measured = rivals.select(&:ok?)
        missing = rivals.reject(&:ok?).map(&:label).uniq
        note = missing.empty? ? "" : "; not measured: #{missing.join(", ")}"
        return ["not measured", "no rival was measured#{note}"] if measured.empty?

        best = measured.max_by { |c| score(c) }
        ratio = ratio(a, best)
        answer = ratio >= 1 ? "yes" : "no"
        lead = ratio >= 1 ? "#{format_ratio(ratio)} the next best" : "#{best.label} is ahead by #{format_ratio(1 / ratio)}"
        [answer, "#{lead} (#{show(a)} vs #{show(best)})#{note}"]
      end

      def check_no_errors
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        [a.errors.zero? ? "yes" : "no", "#{a.errors_n_tot} errors (#{a.label})"]
      end

      # The first seconds of the native engine's series against the rest.
      def check_warms_up
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        rates = a.series.map { |p| p["requests_per_s"] }.compact
        return ["not measured", "#{a.label}: no per-second series (engine #{a.cell["engine"]})"] if rates.size < 4

        head = rates.first([rates.size / 4, 1].max)
        tail = rates.last(rates.size / 2)
        share = mean(head) / mean(tail)
        [share < 0.9 ? "yes" : "no",
         "the first #{head.size} s ran at #{(share * 100).round}% of the last #{tail.size} s (#{a.label})"]
      end

      private

      def pair = [find(@spec["a"]), find(@spec["b"])]

      def unmeasured(*figures)
        why = figures.map.with_index do |f, i|
          next "#{%w[a b][i]} #{@spec[%w[a b][i]].inspect}: no such cell in this run" unless f

          "#{f.label}: #{f.reason}" unless f.ok?
        end
        ["not measured", why.compact.join("; ")]
      end

      def endpoint = @spec["endpoint"]

      def concurrency
        return map("concurrency", @spec["concurrency"]) if @spec["concurrency"]

        @cells.select { |c| endpoint.nil? || [c["endpoint"], c["path"]].include?(endpoint) }.map { |c| c["concurrency"] }.max
      end

      def at_level(cell)
        (endpoint.nil? || [cell["endpoint"], cell["path"]].include?(endpoint)) && cell["concurrency"] == concurrency
      end

      def find(match)
        cell = @cells.find { |c| at_level(c) && subset?(scaled_match(match || {}), c["config"] || {}) }
        cell && Figures.new(cell)
      end

      def level_cells(figure)
        @cells.select do |c|
          at_level(c) && c["config"]&.dig("app") == figure.cell["config"]&.dig("app")
        end.map { |c| Figures.new(c) }
      end

      def subset?(match, config)
        match.all? do |k, v|
          v.is_a?(Hash) ? config[k].is_a?(Hash) && subset?(v, config[k]) : config[k] == v
        end
      end

      def scaled_match(match) = match.to_h { |k, v| [k, v.is_a?(Hash) ? v : map(k, v)] }

      def map(key, value) = @mapping.dig(key, value) || value

      # {"workers"=>{4=>2}, "concurrency"=>{500=>100}} from the run's data["scaled"].
      def mapping_from(scaled)
        (scaled || {}).fetch("changes", []).each_with_object({}) do |change, map|
          (map[change["key"]] ||= {})[change["from"]] = change["to"]
        end
      end

      def value(figure) = figure.metric(@metric).to_f
      def score(figure) = @better == :higher ? value(figure) : -value(figure)

      # How many times better a is than b on the metric (> 1: a is better).
      def ratio(a, b)
        x = value(a)
        y = value(b)
        return Float::INFINITY if (@better == :higher ? y : x).zero?

        @better == :higher ? x / y : y / x
      end

      def format_ratio(ratio)
        if ratio.infinite?
          "infinitely"
        else
          "#{ratio.round(ratio < 10 ? 2 : 1)}x"
        end
      end

      def show(figure)
        value = figure.metric(@metric)
        "#{figure.label} #{value.is_a?(Float) ? value.round(3) : value} #{Figures::METRICS[@metric][2]}"
      end

      def mean(list) = list.sum.to_f / list.size
    end
  end
end
