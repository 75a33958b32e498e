# frozen_string_literal: true

module Rackbench
  module CLI
    # The regression gate shared by compare, ab and run --baseline: its
    # options (--threshold, --metric, --strict), the Regression they ask for,
    # and the exit status it gives. The worst finding decides the status:
    # 1 a cell regressed, 5 a baseline cell could not be compared (the gate
    # fails closed), 6 with --strict a cell is inconclusive, else 0.
    #
    #   gate = Gate.new
    #   gate.define(parser); gate.define_format(parser)  # compare and ab
    #   regression = gate.regression(baseline_measurements, new_measurements)
    #   gate.status(regression)   # => 0, 1, 5 or 6
    #   gate.report(regression, baseline_run, new_run, command: "compare")  # what --format asks for
    class Gate
      REGRESSED = 1
      NOT_COMPARED = 5
      INCONCLUSIVE = 6
      DEFAULT_THRESHOLD = 0.05
      DEFAULT_METRIC = "good_requests_per_s"
      FORMATS = %w[table markdown json].freeze

      attr_reader :threshold, :metric, :format

      def initialize
        @threshold = DEFAULT_THRESHOLD
        @metric = DEFAULT_METRIC
        @strict = false
        @format = "table"
      end

      # "10%", "10 %" or "0.1" as a share.
      def self.share(text, option)
        value = text.to_s.strip.end_with?("%") ? Float(text.to_s.delete("%").strip) / 100 : Float(text)
        unless value.positive? && value < 1
          raise ConfigError,
                "#{option} must be a share between 0 and 1 (0.05 or 5%), got #{text}"
        end

        value
      rescue ArgumentError
        raise ConfigError, "#{option} must be a share between 0 and 1 (0.05 or 5%), got #{text.inspect}"
      end

      # subject: what the threshold is about ("a cell", "B").
      def define(parser, subject: "a cell")
        parser.on("--threshold SHARE", "smallest change for the worse of #{subject} that fails the gate, and the margin " \
                                       "of 'equivalent' (default 5%)") { |t| @threshold = self.class.share(t, "--threshold") }
        parser.on("--metric NAME", "p50, p99, throughput, memory or #{Measurement::METRICS.keys.join(", ")} " \
                                   "(default: throughput of good responses)") do |m|
          Measurement.metric(Regression.metric_name(m))
          @metric = m
        end
        parser.on("--strict", "also fail (exit 6) when a cell's outcome is inconclusive") { @strict = true }
      end

      # --format of compare and ab (run's --format is its report's).
      def define_format(parser)
        parser.on("--format FORMAT", FORMATS,
                  "table (default), markdown (a short summary for a CI job or a pull request) or json") { |f| @format = f }
      end

      # What compare and ab print: the gate's short summary (markdown,
      # Reports::GateSummary), or the comparison (Reports::RegressionReport) as a table or json.
      def report(regression, baseline, current, command:)
        if format == "markdown"
          return Reports::GateSummary.new(regression, baseline, current, status: status(regression), command: command).markdown
        end

        Reports::RegressionReport.new(regression, baseline, current).public_send(format)
      end

      def regression(baseline, current, **pairing)
        Regression.new(baseline, current, threshold: threshold, metric: metric, **pairing)
      end

      def status(regression)
        return REGRESSED if regression.regressed?
        return NOT_COMPARED if regression.not_compared?
        return INCONCLUSIVE if @strict && regression.inconclusive?

        0
      end
    end
  end
end
