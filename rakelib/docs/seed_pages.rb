# frozen_string_literal: true

require "rackbench/article/summary"
require "rackbench/reports/parts/claim_text"

module Rackbench
  module Docs
    # What doc/seeds.md says of each seed suite's stored run (rakelib/docs_seeds.rake).
    module SeedPages
      STORE_DIR = "doc/runs/seeds"
      # The order docs:runs:seeds makes them in: smallest first.
      ORDER = %w[lighttpd-proxy-2008 thin-nginx-2008 app-servers-2015 torquebox-2011 puma-vs-unicorn-2016].freeze

      module_function

      # "a,b" (SEEDS=) or all five, smallest first.
      def names(wanted)
        list = wanted.split(",")
        unknown = list - ORDER
        raise ArgumentError, "SEEDS: #{unknown.join(", ")} is not a seed suite (#{ORDER.join(", ")})" unless unknown.empty?

        list.empty? ? ORDER : list
      end

      # The suite's paragraph: the command, wall time and load, the tally, each claim's answer, the chart.
      def paragraph(suite, number, run, measurements, chart:, dir:)
        summary = Article::Summary.new(run, measurements)
        answers = summary.answers
        claims = answers.map { |a| "#{a.says}: **#{Reports::ClaimText.new(a).word}**" }
        image = chart ? "![#{chart["title"]}](#{chart["path"]})" : "(Nothing was measured in this run, so it has no chart.)"
        <<~MD
          ## #{number} · #{summary.article["title"]}

          `bin/rackbench run #{suite} --scale` (#{summary.conditions_text}).
          #{Reports::ClaimText.tally(answers)} The claims: #{claims.join("; ")}.
          [The report](seeds/#{suite}.md): `bin/rackbench report #{run["id"]} --results #{dir} --format article`.

          #{image}
        MD
      end

      def unstored(suite, number)
        <<~MD
          ## #{number} · #{suite}

          No run at the size that decides is stored yet (`bundle exec rake docs:runs:seeds SEEDS=#{suite}` makes it);
          [its page](seeds/#{suite}.md) is from an earlier run.
        MD
      end
    end
  end
end
