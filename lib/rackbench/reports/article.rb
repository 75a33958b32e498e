# frozen_string_literal: true

require_relative "../article/summary"

module Rackbench
  module Reports
    # A seed suite's run next to its article: what the article found, what was
    # scaled for this machine, the run's tables in the article's own shapes
    # (the formats its suite's article: tables: names), and each of the
    # article's claims checked against this run's figures, e.g.
    # "Puma x4:10 beats Unicorn x4 on /sleep at concurrency 50: yes, 4.1x (...)".
    # `rackbench run` prints it for a suite with an article: block.
    #
    #   rackbench report RUN --format article
    class Article < Base
      def render
        summary = Rackbench::Article::Summary.new(run, cells)
        article = summary.article
        out = heading.map { |l| "#{l}\n" }.join
        out << "Seed: #{article["title"]} (#{article["seed"]})\n" if article["title"]
        out << "#{summary.scaled_text}\n" if summary.scaled_text
        out << "\nThe article found:\n#{wrap(article["found"])}\n" if article["found"]
        (article["tables"] || ["three_column"]).each do |format|
          out << "\n#{Reports.fetch(format).new(run, cells).render}"
        end
        verdicts = summary.verdicts
        unless verdicts.empty?
          out << "\nThis run against the article:\n"
          verdicts.each { |v| out << "- #{v["sentence"]}\n" }
        end
        summary.failures.each { |f| out << "\nNot measured: #{f.label} #{f.cell["endpoint"]}: #{f.reason}\n" }
        out
      end

      private

      # The article's words, folded at about 100 columns.
      def wrap(text)
        text.to_s.split(/\n\s*\n/).map do |para|
          para.gsub(/\s+/, " ").strip.scan(/\S.{0,98}(?=\s|\z)|\S+/).join("\n")
        end.join("\n\n")
      end
    end

    register("article", Article)
  end
end
