# frozen_string_literal: true

module Rackbench
  module Tune
    # The recommendation with its evidence: the config that sustains the
    # highest rate under the SLO within the memory budget, how sure that is
    # against the runner-up, and a table of every config tried. Rates closer than the rate search's
    # resolution (Knee::RESOLUTION) are not told apart: among the configs
    # within it of the highest, the one with the least PSS is recommended,
    # and the sentence says so. The sentence ends with how sure the ranking
    # is (#certainty): the leader against the runner-up (Separation), and
    # the configs screened out by their capacity. Created by Tuner.
    class Answer
      def initialize(tuner, slo:, memory_bytes:)
        @tuner = tuner
        @slo = slo
        @memory_bytes = memory_bytes
      end

      def measured = @tuner.outcomes.select(&:rate)
      def within_budget = measured.select { |o| @memory_bytes.nil? || (o.pss_bytes && o.pss_bytes <= @memory_bytes) }
      # By where the searches put each knee (Outcome#level_rps), so a config searched twice (whose
      # reported rate is the lower of two) and one searched once are ranked alike.
      def ranked = within_budget.sort_by { |o| -o.level_rps }
      def highest = ranked.first

      # The configs the search cannot tell from the highest.
      def tied = highest ? ranked.select { |o| o.level_rps >= highest.level_rps * (1 - Knee::RESOLUTION) } : []
      def best = tied.min_by { |o| [o.pss_bytes || Float::INFINITY, -o.level_rps] }
      # The highest rate after the recommendation's.
      def runner_up = ranked.find { |o| !o.equal?(best) }
      def screened = @tuner.outcomes.select(&:screened?)

      # nil when there is a recommendation; else why there is none.
      def problem
        return nil if best

        if measured.empty?
          unconfirmed = @tuner.outcomes.count(&:unconfirmed?)
          also = unconfirmed.positive? ? "; #{unconfirmed} found a knee a fresh deployment did not confirm" : ""
          return "no config met #{@slo} at any rate (#{@tuner.outcomes.size} tried#{also})"
        end

        smallest = measured.min_by { |o| o.pss_bytes.to_i }
        "every config that met the SLO is over --memory #{mb(@memory_bytes)}: the smallest, #{smallest.label}, " \
          "used #{mb(smallest.pss_bytes)} PSS at its knee"
      end

      def sentence
        return problem unless best

        text = "#{best.label}: #{rate_text(best)} at #{@slo}, #{mb(best.pss_bytes)} PSS#{fitting_text}"
        text += tie_text if tied.size > 1
        "#{text}; #{certainty}"
      end

      # How sure the ranking is: "leader puma x4:16 ahead of the runner-up
      # puma x2:16 (knee 940 req/s from 2 searches): 1.29x [1.12, 1.48] with 3
      # and 2 searches", or "leader and runner-up not separated: ...", and
      # the configs screened out.
      def certainty
        return nil unless best

        [runner_up ? ranking_text(Separation.new(best, runner_up, measured)) : "the only config with a knee",
         screened_text, waiting_text].compact.join("; ")
      end

      # The recommended config's memory at its knee split into shared and
      # per worker (Capacity, from the probe's worker snapshot), and how many
      # such workers fit --memory; nil without a budget or workers. The
      # probe's Measurement is built once (the sentence and to_h both ask).
      def capacity
        repeat = best&.knee&.knee_repeat
        return nil unless @memory_bytes && repeat

        capacity = (@capacities ||= {}.compare_by_identity)[repeat] ||=
          Capacity.new(Measurement.new({ "label" => best.label, "status" => "ok" }, [repeat]), "memory" => @memory_bytes)
        capacity.workers_fitting ? capacity : nil
      end

      def fitting_text
        c = capacity or return ""
        "; #{c.workers_fitting} workers fit --memory #{mb(@memory_bytes)} (#{c.memory_line} at the knee)"
      end

      # Every config tried, as the report of a stored tune run prints it (Reports::TuneAnswer).
      def table = Reports::TuneAnswer.grid(configs, @memory_bytes).text

      def to_h
        { "slo" => @slo.to_s, "memory_bytes" => @memory_bytes, "recommendation" => best&.config, "sentence" => sentence,
          "problem" => problem, "label" => best&.label, "workers_fitting" => capacity&.workers_fitting,
          "certainty" => certainty,
          "configs" => configs }
      end

      def configs
        @tuner.outcomes.map do |o|
          { "config" => o.config, "label" => o.label, "sustainable_rate" => o.rate, "ci" => o.ci&.to_a&.first(2),
            "searches" => o.searches, "confirmed_searches" => o.knee.respond_to?(:confirmed) ? o.knee.confirmed.size : nil,
            "unconfirmed" => o.unconfirmed?, "screened" => o.screened?, "capacity_rps" => o.capacity_rps,
            "p99_ms" => o.p99_ms, "knee_requests" => o.knee_requests, "pss_bytes" => o.pss_bytes,
            "cpu_percent" => o.cpu_percent, "error" => o.error,
            "probes" => probes(o.knee) }
        end
      end

      private

      def ranking_text(separation)
        other = separation.runner_up
        searches = "with #{best.searches.to_i} and #{other.searches.to_i} searches"
        runner = "the runner-up #{other.label} (#{rate_text(other)})"
        interval = separation.interval
        unless interval
          return "leader and runner-up not separated: #{runner}; no config searched twice yet, so no spread between searches"
        end

        ratio = format("%.2fx [%.2f, %.2f] %s", separation.ratio, interval.low, interval.high, searches)
        if separation.separated?
          "leader #{best.label} ahead of #{runner}: #{ratio}"
        else
          "leader and runner-up not separated: #{best.label} against #{runner}: #{ratio}"
        end
      end

      def screened_text
        return nil if screened.empty?

        list = screened.map { |o| format("%s %.0f req/s", o.label, o.capacity_rps) }.join(", ")
        "#{screened.size} screened out, their closed-loop capacity below #{(Tuner::SCREEN * 100).round} % of the " \
          "leader's knee: #{list}"
      end

      # Configs whose capacity could reach the leader's knee, left unsearched when the budget ran out.
      def waiting_text
        waiting = @tuner.outcomes.select(&:waiting?)
        return nil if waiting.empty?

        list = waiting.map { |o| format("%s %.0f req/s", o.label, o.capacity_rps) }.join(", ")
        "not searched within the budget, though their capacity could reach the leader's: #{list}"
      end

      # Every probe of every search, with its search (1..K) and deployment within it (1: search, 2: confirmation).
      def probes(sample)
        return nil unless sample

        knees = sample.respond_to?(:knees) ? sample.knees : [sample]
        knees.each_with_index.flat_map do |knee, index|
          knee.probes.map do |p|
            { "rate" => p.rate, "met" => p.met, "error" => p.error, "search" => index + 1, "deployment" => p.deployment,
              "decision" => p.decision&.to_s }.compact
          end
        end
      end

      def tie_text
        others = tied.size - 1
        "; #{others} other config#{"s" unless others == 1} sustain#{"s" if others == 1} within " \
          "#{(Knee::RESOLUTION * 100).round} % of the highest (#{highest.label}, #{format("%.0f", highest.rate)} req/s), " \
          "closer than the rate search can tell apart: this one uses the least memory"
      end

      def rate_text(outcome) = Reports::TuneAnswer.rate_text(outcome.rate, outcome.ci&.to_a, outcome.searches)

      def mb(bytes) = bytes ? "#{(bytes / 1_048_576.0).round} MB" : "?"
    end
  end
end
