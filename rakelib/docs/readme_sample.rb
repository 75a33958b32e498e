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
      CHART = /sleep-50-throughput/

      attr_reader :run, :measurements

      def initialize(store)
        row = store.runs.find { |r| r["suite"] == SUITE && r["status"] == "finished" }
        raise Error, "no finished run of #{SUITE} in #{store.path}: `bundle exec rake docs:runs` makes one" unless row

        @run = store.run(row["id"])
        @measurements = store.measurements(row["id"])
      end

      def report = Reports.fetch("table").new(run, measurements).render

      # The /sleep/50 block of the report: its header, the rows of LABELS, its
      # throughput verdicts and the warnings, each line as the report prints it
      # (an item's continuation lines go with it).
      def excerpt
        block = report[%r{^/sleep/50\n.*}m] or raise Error, "run #{run["id"]} has no /sleep/50 block"
        section = nil
        keep = true
        first_table = true # the /sleep/50 rows; later tables (capacity, ...) are left out
        block.lines.select do |line|
          first_table = false if line == "\n"
          if line.match?(/\A\S/)
            section = line[/\A(Verdicts|Warnings)/, 1] || section
            keep = kept_heading?(line, first_table)
          elsif section == "Verdicts" && line.match?(/\A  \S/)
            keep = line.start_with?("  - /sleep/50 c=") && !line.include?("closed-loop latency")
          end
          keep || line == "\n"
        end.join.gsub(/\n{3,}/, "\n\n")
      end

      # A line at the left margin worth keeping: a section's title, or the /sleep/50 table's header and rows.
      def kept_heading?(line, first_table)
        line.start_with?("Verdicts", "Warnings") || (first_table && line.start_with?("/sleep", "Server", "---", *LABELS))
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
