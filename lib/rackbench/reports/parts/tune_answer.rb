# frozen_string_literal: true

module Rackbench
  module Reports
    # A tune run's answer as stored with the run (Tune::Answer#to_h under
    # settings "tune_answer"): the recommendation, or why there is none, and
    # every config tried; the stored answer itself as the section's data
    # (json: the knee, its interval, p99, PSS and CPU of every config as
    # numbers). Empty for any other run. A pure function of the run.
    #
    #   TuneAnswer.new(run).sections  # => [Document::Section "tune"], or [] for another run
    #   TuneAnswer.grid(configs, memory_bytes)  # every config tried (Tune::Answer#to_h's configs), a Grid
    class TuneAnswer
      HEADERS = ["Config", "Knee req/s [95 % interval]", "p99 ms at knee", "PSS at knee", "CPU %", "Probes"].freeze

      def self.grid(configs, memory_bytes)
        Grid.new(HEADERS, configs.map do |c|
          rate = c["sustainable_rate"]
          over = rate && memory_bytes && c["pss_bytes"].to_i > memory_bytes ? " (over --memory)" : ""
          [c["label"], rate ? rate_text(rate, c["ci"], c["searches"]) : unmeasured(c),
           p99_text(c),
           c["pss_bytes"] ? "#{(c["pss_bytes"] / 1_048_576.0).round} MB#{over}" : "-",
           c["cpu_percent"] ? format("%.0f", c["cpu_percent"]) : "-", c["probes"] ? c["probes"].size.to_s : "-"]
        end)
      end

      # "knee 120 req/s [112, 131] from 3 searches": the reported knee (a rate
      # met in a search's confirming probes) and where the knee lies, from the
      # searches (Tune::KneeSample). A met rate sits at or below its search's
      # knee, so it can fall below the interval when the searches agree
      # closely; then the two are said as two facts, "sustains 64 req/s; knee
      # [65, 86] from 2 searches", never a figure outside its own interval.
      # interval: [low, high] or nil. A run stored before tune searched more
      # than once has no searches: its interval ran from the knee to the
      # lowest rate that missed above it ("?": none).
      def self.rate_text(rate, interval, searches = nil)
        text = format("knee %.0f req/s", rate)
        return "#{text} from 1 search" if !interval && searches == 1
        return text unless interval

        low, high = interval
        bounds = format("[%.0f, %s]", low, high ? format("%.0f", high) : "?")
        text = format("sustains %.0f req/s; knee", rate) if rate.round < low.round
        searches ? "#{text} #{bounds} from #{searches} searches" : "#{text} #{bounds}"
      end

      # The p99 of the probe at the knee, or why not: "n=254, too few" (p99 needs 10 requests beyond it).
      def self.p99_text(config)
        return "-" unless config["p99_ms"]

        n = config["knee_requests"]
        return "n=#{n}, too few" if n && !Measurement.estimable_from?(n, 99)

        format("%.1f", config["p99_ms"])
      end

      def self.unmeasured(config)
        return "failed" if config["error"]
        if config["capacity_rps"] && config["searches"].to_i.zero?
          return format("%s: capacity %.0f req/s", config["screened"] ? "screened out" : "not searched", config["capacity_rps"])
        end

        config["unconfirmed"] ? "knee not confirmed#{confirmed_text(config)}" : "-"
      end

      def self.confirmed_text(config)
        return "" unless config["searches"]

        " (#{config["confirmed_searches"].to_i} of #{config["searches"]} searches)"
      end

      def initialize(run)
        @run = run
        @answer = run.dig("settings", "tune_answer")
        @settings = run.dig("settings", "tune") || {}
      end

      def any? = !@answer.nil?
      def sentence = @answer&.fetch("sentence")
      def configs = @answer ? @answer["configs"] : []

      def budget_text = @settings["grid"] ? "full grid" : "budget #{@settings["budget_s"]} s"

      def intro
        "rackbench tune: #{@settings["server"]}, #{@answer["slo"]}#{memory}; " \
          "#{configs.size} configs in #{@answer["elapsed_s"]} s (#{budget_text})"
      end

      # The intro, every config tried, and the recommendation (or why there is none).
      def sections
        return [] unless any?

        [Document::Section.new("tune", nil, [Document::Text.plain(intro), grid, Document::Text.strong(recommendation)],
                               [@answer])]
      end

      def grid = self.class.grid(configs, @answer["memory_bytes"])

      def recommendation = @answer["problem"] ? "No recommendation: #{@answer["problem"]}" : "Recommended: #{sentence}"

      private

      def memory = @answer["memory_bytes"] ? ", memory <= #{(@answer["memory_bytes"] / 1_048_576.0).round} MB" : ""
    end
  end
end
