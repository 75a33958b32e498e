# frozen_string_literal: true

module Rackbench
  module Reports
    # A tune run's answer as stored with the run (Tune::Answer#to_h under
    # settings "tune_answer"): the recommendation, or why there is none, and
    # every config tried. Empty for any other run. A pure function of the run.
    #
    #   TuneAnswer.new(run).text      # for the terminal table
    #   TuneAnswer.new(run).markdown
    class TuneAnswer
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

      def text
        return "" unless any?

        "\n#{intro}\n\n#{@answer["table"]}\n#{recommendation}\n"
      end

      def markdown
        return "" unless any?

        rows = @answer["table"].lines.map(&:chomp).reject { |l| l.start_with?("-") }
                               .map { |l| l.split(/\s{2,}/).map(&:strip) }
        head, *body = rows
        table = ["| #{head.join(" | ")} |", "| :--- |#{" ---: |" * (head.size - 1)}",
                 *body.map { |r| "| #{r.join(" | ")} |" }].join("\n")
        "\n#{intro}\n\n#{table}\n\n**#{recommendation}**\n"
      end

      def recommendation = @answer["problem"] ? "No recommendation: #{@answer["problem"]}" : "Recommended: #{sentence}"

      private

      def memory = @answer["memory_bytes"] ? ", memory <= #{(@answer["memory_bytes"] / 1_048_576.0).round} MB" : ""
    end
  end
end
