# frozen_string_literal: true

require "stringio"
require "rackbench"

module Rackbench
  module Docs
    # The pages that show `rackbench explain` on real runs, kept in
    # doc/runs/explain: doc/explain.md (bench/explain/suite.yml, puma 1 thread
    # against 4 with explain: true), doc/capacity.md (bench/explain/capacity.yml)
    # and the README's "Why is it slow?" (the /sleep/50 table of the first).
    # `rake docs:runs:explain` makes the runs, `rake docs:explain` writes the
    # blocks, and test/docs/explain_sample_test.rb checks that each page holds
    # what the command prints for its run now.
    #
    #   sample = ExplainSample.new(Store.new(ExplainSample::STORE_DIR))
    #   sample.blocks   # => {["doc/explain.md", "explain"] => "...", ...}
    class ExplainSample
      STORE_DIR = "doc/runs/explain"
      # suite => what `rackbench explain` is given beside the run
      SUITES = { "why-is-it-slow" => [], "what-will-it-cost" => %w[--memory 1GB --price 0.34 --cpus 4] }.freeze
      SUITE_FILES = { "why-is-it-slow" => "bench/explain/suite.yml", "what-will-it-cost" => "bench/explain/capacity.yml" }.freeze

      def initialize(store)
        @store = store
        @runs = SUITES.keys.to_h do |suite|
          row = store.runs.find { |r| r["suite"] == suite && r["status"] == "finished" }
          raise Error, "no finished run of #{suite} in #{store.path}: `bundle exec rake docs:runs:explain` makes one" unless row

          [suite, store.run(row["id"])]
        end
      end

      # [shown command, what it prints] for a suite's run.
      def explain(suite)
        run = @runs.fetch(suite)
        argv = [run["id"].to_s, *SUITES.fetch(suite), "--results", File.dirname(@store.path)]
        out = StringIO.new
        err = StringIO.new
        status = CLI.start(["explain", *argv], out: out, err: err)
        raise Error, "rackbench explain #{argv.join(" ")} exited #{status}: #{err.string}" unless status.zero?

        ["rackbench explain #{[run["id"].to_s, *SUITES.fetch(suite), "--results", STORE_DIR].join(" ")}", out.string]
      end

      # The run of a suite and the machine it ran on, in words.
      def provenance(suite)
        run = @runs.fetch(suite)
        load = run.dig("machine", "loadavg")&.map { |l| format("%.1f", l) }&.join(", ")
        "`bin/rackbench run #{SUITE_FILES.fetch(suite)}` on a #{run.dig("machine", "cores")}-core machine shared with " \
          "other work\n(load average #{load || "not recorded"} over 1, 5 and 15 minutes as it started), stored in #{STORE_DIR}"
      end

      def session(suite, text = nil)
        shown, out = explain(suite)
        "```text\n$ #{shown}\n#{(text || out).rstrip}\n```"
      end

      # The /sleep/50 table of the why run and its note.
      def readme_excerpt
        _, out = explain("why-is-it-slow")
        title = out[/^Why: .*\n/] or raise Error, "the why run has no Why section"
        table = out[%r{^/sleep/50 .*?\n\n}m] or raise Error, "the why run has no /sleep/50 table"
        "#{title}#{table.rstrip}\n"
      end

      def blocks
        {
          ["doc/explain.md", "explain"] => "#{provenance("why-is-it-slow")}:\n\n#{session("why-is-it-slow")}",
          ["doc/capacity.md", "capacity"] => "#{provenance("what-will-it-cost")}:\n\n#{session("what-will-it-cost")}",
          ["README.md", "why"] => "From #{provenance("why-is-it-slow")} (the /sleep/50 rows; doc/explain.md has all):" \
                                  "\n\n#{session("why-is-it-slow", readme_excerpt)}"
        }
      end

      # The text between a page's name:start and name:end markers.
      def self.block(text, name) = text[/<!-- #{name}:start -->\n(.*?)\n<!-- #{name}:end -->/m, 1]
    end
  end
end
