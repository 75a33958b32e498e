# frozen_string_literal: true

require_relative "../article/summary"
require_relative "parts/full_label"
require_relative "parts/claim_text"
require_relative "parts/beside_article"

module Rackbench
  module Reports
    # A seed suite's run next to its article: what the article found, what was
    # scaled for this machine, the article's printed figures beside this run's
    # (absolute, and as the ratios its claims are about), the run's tables in
    # the article's own shapes (the formats its suite's article: tables:
    # names), and each claim's answer (Article::Answer, in words by ClaimText),
    # e.g. "Puma x4:10 beats Unicorn x4 on /sleep at concurrency 50: yes, 4.1x (...)".
    # The servers that could not run are stated once, at the top, with their
    # reason; the tables and claims below only point to it. Markdown, so that
    # `--output doc/seeds/NAME.md` is the seed's page.
    # `rackbench run` prints it for a suite with an article: block.
    #
    #   rackbench report RUN --format article --output doc/seeds/NAME.md
    class Article < Base
      include FailureNotes

      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        answers = summary.answers
        out = head(summary)
        out << not_measured
        out << BesideArticle.new(summary, answers).render
        (summary.article["tables"] || ["three_column"]).each do |format|
          report = Reports.fetch(format).new(run, cells)
          report.failure_notes = failure_notes if report.respond_to?(:failure_notes=)
          out << "\n#{report.render}"
        end
        out << claims(answers)
      end

      private

      def head(summary)
        article = summary.article
        out = +""
        out << "## #{article["title"]}\n\nSeed: #{article["seed"]}\n\n" if article["title"]
        out << heading.map { |l| "#{l}  \n" }.join
        out << "#{summary.conditions_text}  \n" if summary.conditions_text
        out << "#{summary.scaled_text}\n" if summary.scaled_text
        out << "\n#{wrap(summary.cpus_text)}\n" if summary.cpus_text
        out << "\nThe article found:\n\n#{wrap(article["found"]).gsub(/^/, "> ")}\n" if article["found"]
        out << differences(article["differences"]) if article["differences"]
        out
      end

      # How this run departs from the article (a suite's article: differences:).
      def differences(list) = "\nHere, unlike the article:\n#{list.map { |d| "- #{wrap(d)}\n" }.join}"

      # Each server that could not run, once, with its reason.
      def not_measured
        list = Failures.new(cells).to_a
        return "" if list.empty?

        failure_notes.given!(cells.reject(&:ok?))
        lines = list.map { |f| "- #{f.where}: #{f.reason}\n" }
        "\nNot measured here:\n#{lines.join}"
      end

      # The claims' answers, a failed cell's reason left to the list above, and their tally.
      def claims(answers)
        return "" if answers.empty?

        lines = answers.map { |a| "- #{ClaimText.new(a, reasons_above: a.reason == :not_measured).sentence}\n" }
        "\nThis run against the article:\n#{lines.join}\n#{ClaimText.tally(answers)}\n"
      end

      # The article's words, folded at about 100 columns.
      def wrap(text) = Words.paragraphs(text, width: 99)
    end

    register("article", Article)
  end
end
