# frozen_string_literal: true

module Rackbench
  module Reports
    # A claim's Answer (Article::Answer) in words, for the seed reports and
    # the docs: the one place an answer becomes text.
    #
    #   text = ClaimText.new(answer)
    #   text.word       # "not settled"
    #   text.detail     # "1.04x [0.93, 1.17] (thin 410.0 req/s vs unicorn 395.0 req/s); about 3 more starts (90 s of load)"
    #   text.sentence   # "Thin beats Unicorn ...: not settled, 1.04x [0.93, 1.17] ..."
    #   ClaimText.new(answer, reasons_above: true).detail   # a failed cell's reason left to the list above
    class ClaimText
      WORDS = { yes: "yes", no: "no", equivalent: "equivalent", not_settled: "not settled",
                cannot_show_here: "cannot show here" }.freeze

      # Shorter than Measurement::METRICS' units where the claim's words say the rest.
      UNITS = { "good_requests_per_s" => "good req/s" }.freeze
      # Which of a leads claim's rivals the figures are against (Checks::Leads).
      AGAINST = { "closest" => "against the closest of %d, ", "contradicts" => "against the one of %d that contradicts it, ",
                  "closest_open" => "against the closest of %d not settled, " }.freeze

      attr_reader :answer

      # "Decided 7 of 10 (yes 4, no 2, equivalent 1); not settled 2; cannot show here 1."
      def self.tally(answers)
        counts = answers.group_by(&:outcome).transform_values(&:size)
        decided = Rackbench::Article::Answer::DECIDED.sum { |o| counts[o].to_i }
        parts = Rackbench::Article::Answer::DECIDED.filter_map { |o| "#{WORDS[o]} #{counts[o]}" if counts[o] }
        rest = %i[not_settled cannot_show_here].filter_map { |o| "; #{WORDS[o]} #{counts[o]}" if counts[o] }
        "Decided #{decided} of #{answers.size}#{" (#{parts.join(", ")})" unless parts.empty?}#{rest.join}."
      end

      def initialize(answer, reasons_above: false)
        @answer = answer
        @facts = answer.facts
        @reasons_above = reasons_above
      end

      def word = WORDS.fetch(answer.outcome)
      def sentence = "#{answer.says}: #{word}, #{detail}"

      def detail
        case answer.reason
        when :too_few_cpus then cpus_text
        when :too_few_clients then clients_text
        when :not_measured then not_measured_text
        when :not_installed then "not installed here: #{@facts["missing"].map { |name, why| "#{name}: #{why}" }.join("; ")}"
        when :no_series then no_series_text
        when :scaled_away then scaled_text
        when :failed_to_start then "#{@facts.dig("a", "label")} did not start here: #{@facts.dig("a", "reason")}"
        when :started then "#{@facts.dig("a", "label")} started and was measured"
        else measured_text
        end
      end

      private

      def measured_text
        case answer.kind
        when "no_errors" then errors_found_text
        when "warms_up" then warm_up_text
        when "errs" then share_text
        else [ratio_text, figures_text].compact.join(" ") + margin_text + band_text + more_text
        end
      end

      # "1.23x [1.15, 1.31]"; "(one start each: no interval)"; "requests failed (...)".
      def ratio_text
        return errors_text if answer.reason == :errors
        return "#{@facts.dig("a", "value")} against #{@facts.dig("b", "value")}: no ratio of a 0" if answer.reason == :zero_figure

        ci = answer.interval
        return "(one start each: no interval)" unless ci && !ci.level.zero?

        "#{ratio(ci.estimate)} #{format("[%.2f, %.2f]", ci.low, ci.high)}"
      end

      def errors_text
        shares = @facts["errors"].map { |label, share| "#{label} #{pct(share, 1)}" }
        "requests failed (#{shares.join(", ")}): no verdict on all responses"
      end

      def no_series_text
        "#{@facts.dig("a", "label")}: no per-second series of #{Rackbench::Article::Checks::WarmsUp::MIN_POINTS} s or more " \
          "(engine #{@facts["engine"]})"
      end

      def figures_text
        a = @facts["a"]
        other = @facts["b"] || @facts["rival"]
        return nil unless a && other

        against = @facts["rival"] ? format(AGAINST.fetch(@facts["against"], AGAINST["closest"]), @facts["rivals"]) : ""
        missing = @facts["missing"].to_a.empty? ? "" : "; not measured: #{@facts["missing"].join(", ")}"
        "(#{against}#{show(a)} vs #{show(other)}#{missing})"
      end

      def show(figure)
        "#{figure["label"]} #{figure["value"]} #{UNITS.fetch(figure["metric"]) { Measurement.metric(figure["metric"])[2] }}"
      end

      def margin_text = @facts["margin"] ? ", margin ±#{pct(@facts["margin"])}" : ""
      def band_text = @facts["band"] ? "; the claim's band #{@facts["band"].min}x-#{@facts["band"].max}x" : ""

      def more_text
        return "" unless @facts["more_starts"]

        each = @facts["b"] || @facts["rival"] ? " of each" : ""
        after = @facts["after_starts"] ? " (after #{@facts["after_starts"]})" : ""
        "; about #{@facts["more_starts"]} more start#{"s" unless @facts["more_starts"] == 1}#{each}#{after} would " \
          "likely settle it (#{duration(@facts["more_s"])} of load)"
      end

      def errors_found_text = "#{@facts["errors"]}/#{@facts["attempted"]} errors (#{@facts.dig("a", "label")})"

      def share_text
        ci = answer.interval
        measured = if ci
                     "#{pct(ci.estimate,
                            1)} [#{pct(ci.low,
                                       1)}, #{pct(ci.high, 1)}] over #{@facts["starts"]} starts"
                   else
                     "one start: no interval"
                   end
        "#{@facts.dig("a", "label")} failed #{@facts["errors"]}/#{@facts["attempted"]} requests, #{measured} " \
          "(the claim: more than #{pct(@facts["share"])})#{more_text}"
      end

      def warm_up_text
        ci = answer.interval
        starts = "#{@facts["starts"]} cold start#{"s" unless @facts["starts"] == 1}"
        measured = ci ? "#{pct(ci.estimate)} [#{pct(ci.low)}, #{pct(ci.high)}]" : "#{pct(@facts["estimate"])} (no interval)"
        "the first #{@facts["head_s"]} s ran at #{measured} of the last #{@facts["tail_s"]} s " \
          "(#{@facts.dig("a", "label")}, #{starts})#{more_text}"
      end

      def cpus_text
        had = @facts["had_cpus"]
        text = "a difference needs #{@facts["needs_cpus"]} CPUs for the server and it had #{had} CPU#{"s" unless had == 1} here"
        case @facts["measured"]
        when nil then text
        when :cannot_show_here then "#{text} (not measured)"
        else "#{text} (measured: #{WORDS.fetch(@facts["measured"])}, #{measured_text})"
        end
      end

      # "the article's effect needs clients waiting for a thread: it had 50 clients for 40 and 40 threads (a, b);
      # here 10 clients for 20 and 20".
      def clients_text
        "the article's effect needs clients waiting for a thread: it had #{@facts["article_clients"]} clients for " \
          "#{@facts["article_threads"].values.join(" and ")} threads (#{@facts["article_threads"].keys.join(", ")}); " \
          "here #{@facts["clients"]} clients for #{@facts["threads"].values.join(" and ")}"
      end

      def not_measured_text
        parts = @facts["failures"].map do |f|
          next "#{f["side"]} #{f["match"].inspect}: no such cell in this run" unless f["label"]

          @reasons_above ? f["label"] : "#{f["label"]}: #{f["reason"]}"
        end
        above = @reasons_above && @facts["failures"].any? { |f| f["label"] }
        "not measured: #{parts.join("; ")}#{" (reason above)" if above}"
      end

      def scaled_text
        moved = @facts["scaled"].map { |key, (from, to)| "#{key} #{from} -> #{to}" }.join(", ")
        "the run was scaled below the article's size (#{moved})"
      end

      def ratio(value)
        return "infinitely" if value.infinite?

        "#{value.round(value < 10 ? 2 : 1)}x"
      end

      # "57 s", "12 min", "3.5 hours": the load more starts would cost.
      def duration(seconds)
        return "#{seconds} s" if seconds < 120
        return "#{(seconds / 60.0).round} min" if seconds < 7200

        "#{(seconds / 3600.0).round(1)} hours"
      end

      def pct(share, digits = 0) = "#{format("%.#{digits}f", share * 100)} %"
    end
  end
end
