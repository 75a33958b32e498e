# frozen_string_literal: true

module Rackbench
  module Article
    # One finding of a seed article, checked against a stored run. Created by
    # the seed report formats from the suite's `article: claims:` list:
    #
    #   - says: Puma x4:10 beats Unicorn x4 on /sleep at concurrency 50
    #     kind: beats              # beats | ties | leads | no_errors | warms_up
    #     factor: [1.6, 2.5]       # beats: "about twice as fast" (the CI must overlap the band)
    #     tolerance: 0.1           # ties: the CI must lie within ±10 % of 1
    #     metric: requests_per_s   # any Figures::METRICS name (default requests_per_s)
    #     a: {server: puma, workers: 4, threads: 10}   # matched against each cell's config
    #     b: {server: unicorn, workers: 4}
    #     endpoint: /sleep/2000
    #     concurrency: 50          # default: the highest level measured for the endpoint
    #     needs_cpus: 4            # a difference needs the server to have 4 CPUs (001: one per Thin socket)
    #
    # Knob values and concurrency are written as in the article; when the run
    # was scaled (--scale, --smoke) they are mapped the same way its suite was.
    # A claim is decided by the CI of a Comparison (Stats), never by a point
    # estimate: "yes" when the CI supports it, "no" when the CI contradicts it,
    # "not shown" when the CI allows both (the ratio and its CI say how close).
    # A claim that needs more server CPUs than the run's server had (needs_cpus,
    # server_cpus: from the run's pinning) answers "cannot show here" whatever
    # the CI: on fewer CPUs the compared configurations end up alike by construction.
    # #verdict => {"says"=>, "answer"=>"yes"|"no"|"not shown"|"not measured"|"cannot show here", "detail"=>, "sentence"=>}
    class Claim
      KINDS = %w[beats ties leads no_errors warms_up].freeze
      CANNOT_SHOW = "cannot show here"

      def initialize(spec, cells, scaled: nil, server_cpus: nil)
        @spec = spec
        @cells = cells
        @server_cpus = server_cpus
        @mapping = mapping_from(scaled)
        @metric = spec.fetch("metric", "requests_per_s")
        _, @better, = Figures::METRICS.fetch(@metric) { raise ConfigError, "claim #{says.inspect}: unknown metric #{@metric.inspect}" }
        raise ConfigError, "claim #{says.inspect}: kind must be one of #{KINDS.join(", ")}" unless KINDS.include?(kind)
      end

      def says = @spec["says"].to_s
      def kind = @spec.fetch("kind", "beats")

      def verdict
        answer, detail = public_send("check_#{kind}")
        answer, detail = too_few_cpus(answer, detail) if too_few_cpus?
        { "says" => says, "answer" => answer, "detail" => detail, "sentence" => "#{says}: #{answer}, #{detail}" }
      end

      def too_few_cpus? = @spec["needs_cpus"] && @server_cpus && @server_cpus < @spec["needs_cpus"]

      # Holds when the ratio's CI lies above 1 (and, with `factor: [lo, hi]`,
      # "about twice as fast", when the CI overlaps that band); "no" when the
      # CI lies below 1; otherwise "not shown".
      def check_beats
        a, b = pair
        return unmeasured(a, b) unless a&.ok? && b&.ok?

        comparison = compare(a, b)
        return uncomparable(comparison) unless comparison.measured?

        ci = comparison.ci
        band = @spec["factor"]
        answer = case Stats.side_of_one(ci)
                 when :above then band && !(ci.low <= band.max && ci.high >= band.min) ? "not shown" : "yes"
                 when :below then "no"
                 else "not shown"
                 end
        band_text = band ? "; the claim's band #{band.min}x-#{band.max}x" : ""
        [answer, "#{ratio_text(comparison)}#{band_text} (#{show(a)} vs #{show(b)})"]
      end

      # Comparison's equivalence test with the claim's tolerance (default
      # 10 %) as its margin: "yes" when the whole CI of the ratio lies within
      # ±tolerance of 1; "no" when it lies wholly outside; else "not shown".
      def check_ties
        a, b = pair
        return unmeasured(a, b) unless a&.ok? && b&.ok?

        tolerance = @spec.fetch("tolerance", 0.1)
        comparison = compare(a, b, margin: tolerance)
        return uncomparable(comparison) unless comparison.measured?

        ci = comparison.ci
        return ["not shown", ratio_text(comparison)] if ci.level.zero?

        answer = if comparison.within_margin? then "yes"
                 elsif ci.high < 1 / (1 + tolerance) || ci.low > 1 + tolerance then "no"
                 else "not shown"
                 end
        [answer, "#{ratio_text(comparison)}, tolerance ±#{(tolerance * 100).round} % (#{show(a)} vs #{show(b)})"]
      end

      # Holds when a is significantly better than every measured rival; "no"
      # when some rival is significantly better; else "not shown".
      def check_leads
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        measured, note = rivals(a)
        return ["not measured", "no rival was measured#{note}"] if measured.empty?

        comparisons = measured.map { |rival| compare(a, rival) }.select(&:measured?)
        return ["not shown", "no rival could be compared#{note}"] if comparisons.empty?

        closest = comparisons.min_by(&:ratio)
        [leads_answer(comparisons.map(&:verdict)),
         "against the closest, #{closest.b.label}: #{ratio_text(closest)} (#{show(a)} vs #{show(Figures.new(closest.b))})#{note}"]
      end

      def check_no_errors
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        [a.errors.zero? ? "yes" : "no", "#{a.errors_n_tot} errors (#{a.label})"]
      end

      # The first seconds against the last ones, in each cold start (the first
      # repeat on each deployment), with a block-bootstrap CI (Stats): "yes"
      # when the whole CI lies below 90 % (at least 10 % slower at first), "no"
      # when it lies above, "not shown" otherwise.
      def check_warms_up
        a = find(@spec["a"])
        return unmeasured(a) unless a&.ok?

        cold = a.measurement.repeats.group_by(&:deployment).map { |_, list| list.min_by(&:index) }
        series = cold.map { |r| rates(r) }.select { |xs| xs.size >= 4 }
        return ["not measured", "#{a.label}: no per-second series of 4 s or more (engine #{a.cell["engine"]})"] if series.empty?

        ci = Stats.head_tail_ratio_ci(series)
        head = [series.first.size / 4, 1].max
        [warm_up_answer(ci), "the first #{head} s ran at #{pct(ci.estimate)} [#{pct(ci.low)}, #{pct(ci.high)}] of the last " \
                             "#{series.first.size / 2} s (#{a.label}, #{series.size} cold start#{"s" if series.size > 1})"]
      end

      WARM_UP_SHARE = 0.9

      private

      def pair = [find(@spec["a"]), find(@spec["b"])]

      # The measured rivals of a at its level, and a note naming those not measured.
      def rivals(a)
        all = level_cells(a).reject { |c| c.label == a.label }
        missing = all.reject(&:ok?).map(&:label).uniq
        [all.select(&:ok?), missing.empty? ? "" : "; not measured: #{missing.join(", ")}"]
      end

      # Leads when ahead of every rival (each interval above 1: an
      # intersection-union test, at the level of one); "no" when a rival is
      # ahead; else "not shown".
      def leads_answer(verdicts)
        return "yes" if verdicts.all?(:a_better)

        verdicts.include?(:b_better) ? "no" : "not shown"
      end

      # Warms up when the first seconds' share of the last ones lies wholly
      # below WARM_UP_SHARE; "no" when wholly above.
      def warm_up_answer(ci)
        return "yes" if ci.high < WARM_UP_SHARE
        return "no" if ci.low > WARM_UP_SHARE

        "not shown"
      end

      # The figures stay beside the answer, which the CPUs decide (a failed cell stays "not measured").
      def too_few_cpus(answer, detail)
        return [answer, detail] if answer == "not measured"

        cpus = "#{@server_cpus} CPU#{"s" unless @server_cpus == 1}"
        [CANNOT_SHOW, "a difference needs #{@spec["needs_cpus"]} CPUs for the server and it had #{cpus} here " \
                      "(measured: #{answer}, #{detail})"]
      end

      def compare(a, b, margin: Comparison::MARGIN)
        Comparison.new(a.measurement, b.measurement, metric: @metric, margin: margin)
      end

      # "1.23x [1.15, 1.31]": how many times better a is, with the CI.
      def ratio_text(comparison)
        ci = comparison.ci
        interval = ci.level.zero? ? "(one repeat each: no CI)" : format("[%.2f, %.2f]", ci.low, ci.high)
        "#{format_ratio(comparison.ratio)} #{interval}"
      end

      def uncomparable(comparison)
        ["not shown", "#{comparison.a.label} vs #{comparison.b.label}: #{@metric} is 0, so no ratio can be formed"]
      end

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
        app = figure.cell["config"]&.dig("app")
        @cells.select { |c| at_level(c) && c["config"]&.dig("app") == app }.map { |c| Figures.new(c) }
      end

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
        mine = [endpoint, *@cells.select { |c| c["path"] == endpoint }.map { |c| c["endpoint"] }]
        kept = changes.reject { |c| c["endpoint"] && !mine.include?(c["endpoint"]) }
        kept.each_with_object({}) do |change, map|
          (map[change["key"]] ||= {})[change["from"]] = change["to"]
        end
      end

      def value(figure) = figure.metric(@metric).to_f

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

      def pct(share) = "#{(share * 100).round}%"

      # Requests per second of each point of a repeat's series.
      def rates(repeat)
        points = repeat.result.series
        points.each_with_index.filter_map do |point, i|
          interval_s = i.zero? ? point["t_s"] : point["t_s"] - points[i - 1]["t_s"]
          point["requests"] / interval_s if interval_s.to_f.positive?
        end
      end
    end
  end
end
