# frozen_string_literal: true

require "json"

module Rackbench
  module CLI
    # rackbench compare BASELINE_RUN NEW_RUN [--threshold 0.05] [--metric M] [--format table|markdown|json]
    # Exit 1 when a cell regressed significantly by more than the threshold, else 0.
    class Compare
      def initialize(argv, out, err)
        @argv = argv
        @out = out
        @err = err
        @results = Store::Location.default
        @threshold = 0.05
        @metric = "requests_per_s"
        @format = "table"
      end

      def call
        parser.parse!(@argv)
        raise ConfigError, "compare needs two run ids: BASELINE_RUN NEW_RUN (see rackbench report --list)" unless @argv.size == 2

        store = Store.new(@results)
        baseline, current = @argv.map { |id| store.run(id) }
        regression = Regression.new(store.measurements(baseline["id"]), store.measurements(current["id"]),
                                    threshold: @threshold, metric: @metric)
        raise ConfigError, "runs #{baseline["id"]} and #{current["id"]} have no cell in common" if regression.rows.empty?

        @out.puts Render.new(regression, baseline, current).public_send(@format)
        regression.regressed? ? 1 : 0
      end

      private

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench compare BASELINE_RUN NEW_RUN [options]\n" \
                     "Compares two stored runs cell by cell (server config, endpoint, concurrency).\n" \
                     "Exit 1 when a cell regressed: the CI of new/baseline lies below 1 and the ratio is below " \
                     "1 - threshold; exit 0 otherwise."
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          o.on("--threshold SHARE", Float, "smallest regression that fails the gate (default 0.05)") do |t|
            raise ConfigError, "--threshold must be a share between 0 and 1, got #{t}" unless t.positive? && t < 1

            @threshold = t
          end
          o.on("--metric NAME", "#{Measurement::METRICS.keys.join(", ")} (default requests_per_s)") do |m|
            Measurement.metric(m)
            @metric = m
          end
          o.on("--format FORMAT", %w[table markdown json], "table (default), markdown or json") { |f| @format = f }
        end
      end

      # The comparison as a table, markdown or JSON.
      class Render
        HEADERS = ["Server / config", "Endpoint", "Conc.", "Baseline [95% CI]", "New [95% CI]", "Change [95% CI]",
                   "Outcome"].freeze

        def initialize(regression, baseline, current)
          @regression = regression
          @baseline = baseline
          @current = current
        end

        def title
          "Run #{@current["id"]} (#{@current["suite"]}) against baseline run #{@baseline["id"]} " \
            "(#{@baseline["suite"]}): #{@regression.metric}, regression threshold #{(@regression.threshold * 100).round(1)} %"
        end

        def table = "#{title}\n\n#{grid.text}#{footer}"
        def markdown = "#{title}\n\n#{grid.markdown}#{footer}"

        def json
          JSON.pretty_generate(
            "baseline" => @baseline["id"], "current" => @current["id"], "metric" => @regression.metric,
            "threshold" => @regression.threshold, "regressed" => @regression.regressed?, "unmatched" => @regression.unmatched,
            "cells" => @regression.rows.map do |r|
              { "label" => r.label, "endpoint" => r.endpoint, "concurrency" => r.concurrency, "outcome" => r.outcome.to_s,
                "baseline" => r.baseline.figure(@regression.metric), "current" => r.current.figure(@regression.metric),
                "comparison" => r.comparison.to_h }
            end
          )
        end

        private

        # Server and endpoint left-aligned, the figures right.
        def grid = Reports::Grid.new(HEADERS, rows, left: 2)

        def rows
          @regression.rows.map do |r|
            [r.label, r.endpoint, r.concurrency, figure(r.baseline), figure(r.current), @regression.change_text(r),
             r.outcome.to_s.tr("_", " ")]
          end
        end

        def figure(measurement)
          value = measurement.figure(@regression.metric)
          return measurement.ok? ? "-" : "failed" unless value

          values = measurement.values(@regression.metric)
          ci = Stats.bootstrap_ci(values)
          ci ? format("%.1f [%.1f, %.1f]", value, ci.low, ci.high) : format("%.1f", value)
        end

        def footer
          lines = []
          lines << "Not in both runs: #{@regression.unmatched.join("; ")}" unless @regression.unmatched.empty?
          lines << if @regression.regressed?
                     "REGRESSED: at least one cell is significantly slower than the threshold."
                   else
                     "No significant regression."
                   end
          "\n#{lines.join("\n")}\n"
        end
      end
    end
  end
end
