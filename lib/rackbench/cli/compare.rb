# frozen_string_literal: true

module Rackbench
  module CLI
    # rackbench compare BASELINE_RUN NEW_RUN [--threshold 5%] [--metric p99] [--strict] [--format table|markdown|json]
    # Exit status from the Gate (1 regressed, 5 not compared, 6 inconclusive
    # with --strict); Regression says how each cell is decided.
    class Compare < Command
      def initialize(argv, out, err)
        super
        @results = Store::Location.default
        @gate = Gate.new
      end

      def call
        parser.parse!(@argv)
        raise ConfigError, "compare needs two run ids: BASELINE_RUN NEW_RUN (see rackbench report --list)" unless @argv.size == 2

        store = Store.new(@results)
        baseline, current = @argv.map { |id| store.run(id) }
        regression = @gate.regression(store.measurements(baseline["id"]), store.measurements(current["id"]))
        raise ConfigError, "runs #{baseline["id"]} and #{current["id"]} have no cell in common" unless regression.matched?

        status = @gate.status(regression)
        @out.puts @gate.report(regression, baseline, current, command: "compare")
        @err.puts "rackbench: #{regression.drift_text}" if regression.drift_text
        status
      end

      private

      def parser
        OptionParser.new do |o|
          o.banner = "Usage: rackbench compare BASELINE_RUN NEW_RUN [options]\n" \
                     "Compares two stored runs cell by cell (server config, endpoint, concurrency).\n" \
                     "Exit 1 when a cell regressed (its interval lies wholly on the worse side and the change is " \
                     "worse than the threshold); 5 when a baseline cell could not be compared (failed, missing, " \
                     "errors above 1 %); 6 with --strict when a cell is inconclusive; 0 otherwise."
          o.on("--results DIR|URL", Store::Location::HELP) { |d| @results = d }
          @gate.define(o)
          @gate.define_format(o)
        end
      end
    end
  end
end
