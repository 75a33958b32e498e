# frozen_string_literal: true

require "rackbench"
require "rackbench/charts/page"

module Rackbench
  module Docs
    # The README's sample: the /sleep/50 block of what `rackbench report RUN
    # --format table` prints for the quick run stored in doc/runs/quick (rows
    # of two servers, the verdicts and the warnings), and that run's chart.
    # `rake docs:runs` stores the run, `rake docs:sample` writes the sample,
    # and test/docs/readme_sample_test.rb checks that the README still holds
    # exactly what the report prints now.
    #
    #   sample = ReadmeSample.new(Store.new(ReadmeSample::STORE_DIR))
    #   sample.markdown                  # the README block, image line included
    #   ReadmeSample.block(readme, "sample")
    class ReadmeSample
      STORE_DIR = "doc/runs/quick"
      SUITE = "quick"
      LABELS = ["puma x0:16", "thin"].freeze
      IMAGE = "doc/images/quick.svg"
      CHART = /sleep-50.*(throughput|requests-per-s)/

      attr_reader :run, :measurements

      def initialize(store)
        row = store.runs.find { |r| r["suite"] == SUITE && r["status"] == "finished" }
        raise Error, "no finished run of #{SUITE} in #{store.path}: `bundle exec rake docs:runs` makes one" unless row

        @run = store.run(row["id"])
        @measurements = store.measurements(row["id"])
      end

      def report = Reports.fetch("table").new(run, measurements).render

      # Cut from the report, paragraph by paragraph: the /sleep/50 table (its
      # header and the rows of LABELS), its throughput verdicts (an item with
      # its continuation lines) and the warnings; pids left out, as docs name none.
      def excerpt
        paragraphs = report.split(/\n\n+/).map { |p| p.lines.map { |l| scrub(l) } }
        table = paragraphs.find { |p| p.first == "/sleep/50\n" } or raise Error, "run #{run["id"]} has no /sleep/50 table"
        verdicts = paragraphs.find { |p| p.first.start_with?("Verdicts") } || []
        warnings = paragraphs.find { |p| p.first.start_with?("Warnings") } || []
        [table.first(3) + table.drop(3).select { |l| l.start_with?(*LABELS) }, sleep_verdicts(verdicts), warnings]
          .reject(&:empty?).map { |p| p.join.chomp }.join("\n\n")
      end

      # The report's line without the pids it names (a busy process's, say).
      def scrub(line) = line.gsub(/ \(pid \d+\)/, "").gsub(/\bpid \d+/, "pid")

      def sleep_verdicts(lines)
        keep = true
        kept = lines.drop(1).select do |line|
          keep = line.start_with?("  - /sleep/50 c=") && !line.include?("closed-loop latency") if line.match?(/\A  \S/)
          keep
        end
        kept.empty? ? [] : [lines.first, *kept]
      end

      # The chart drawn beside the sample (its spec; `rake docs:sample` renders it to IMAGE).
      def chart
        page = Charts::Page.new(run, measurements)
        page.all.find { |c| c["name"].match?(CHART) } || page.lead or raise Error, "run #{run["id"]} measured nothing"
      end

      def markdown
        cores = run.dig("machine", "cores")
        <<~MD.strip
          The quick suite (`bin/rackbench run`) on a #{cores}-core machine that was busy with other work, stored in
          doc/runs/quick. The end of what `bin/rackbench report #{run["id"]} --results doc/runs/quick` prints for it,
          the /sleep/50 rows of two of its servers:

          ```text
          #{excerpt.strip}
          ```

          ![#{chart["title"]}](#{IMAGE})
        MD
      end

      # What lies between <!-- NAME:start --> and <!-- NAME:end --> in text.
      def self.block(text, name)
        text[/<!-- #{name}:start -->\n(.*?)\n<!-- #{name}:end -->/m, 1] or
          raise Error, "no #{name}:start/#{name}:end markers"
      end
    end
  end
end
