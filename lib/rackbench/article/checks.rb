# frozen_string_literal: true

module Rackbench
  module Article
    # The kinds of claim, one class each in article/checks/, found by name
    # (a claim's kind:). Each is made with its Claim and answers it:
    #
    #   Checks.fetch("beats").new(claim).answer   # => Answer
    #
    # Check holds what they share: the comparison of two cells, the facts a
    # figure contributes, and the answer for cells that were not measured.
    module Checks
      @kinds = {}

      def self.register(name, klass) = @kinds[name] = klass
      def self.names = @kinds.keys
      def self.known?(name) = @kinds.key?(name)
      def self.fetch(name) = @kinds.fetch(name)

      # The base of every kind.
      class Check
        attr_reader :claim

        def initialize(claim)
          @claim = claim
        end

        private

        def metric = claim.metric

        # errors: :ignore where the metric counts good responses only: a
        # server that fails requests is measured on those it answered well.
        def compare(a, b, margin: claim.run_margin || Comparison::MARGIN)
          errors = metric == "good_requests_per_s" ? :ignore : :verdict
          Comparison.new(a.measurement, b.measurement, metric: metric, margin: margin, errors: errors)
        end

        # {"label", "value", "metric"} of a figure on the claim's metric.
        def figure(figures)
          value = figures.metric(metric)
          { "label" => figures.label, "value" => value.is_a?(Float) ? value.round(3) : value, "metric" => metric }
        end

        def reply(outcome, reason, interval: nil, **facts)
          Answer.new(outcome: outcome, reason: reason, interval: interval, facts: facts.transform_keys(&:to_s))
        end

        # A cell missing from the run, or failed: the claim cannot be shown here.
        def unmeasured(*figures, sides: %w[a b])
          failures = figures.each_with_index.filter_map do |f, i|
            next { "side" => sides[i], "match" => claim.spec[sides[i]], "reason" => nil } unless f
            next if f.ok?

            { "side" => sides[i], "label" => f.label, "reason" => f.reason }
          end
          reply(:cannot_show_here, :not_measured, failures: failures)
        end

        # The outcome of a speed (or other metric) comparison that formed no
        # verdict of its own: errors, one start, or a zero figure.
        def unsettled(comparison, **facts)
          case comparison.verdict
          when :errors
            shares = [comparison.a, comparison.b].to_h { |m| [m.label, m.error_share.to_f] }
            reply(:not_settled, :errors, errors: shares, **facts)
          when :no_interval then reply(:not_settled, :one_start, interval: comparison.ci, **facts)
          else reply(:not_settled, :undecided, interval: comparison.ci, **facts, **more(comparison))
          end
        end

        # How many more starts would likely settle it (Comparison#more_starts),
        # after how many, and the seconds of load they cost: what a page says
        # of every claim left open, however far out of this run's reach.
        def more(comparison)
          more_starts = comparison.more_starts
          return {} unless more_starts

          more_facts(more_starts, comparison.starts, [comparison.a, comparison.b])
        end

        # The same for an interval that must clear edge (a band's, a share's):
        # it narrows as 1 / sqrt(starts) around its estimate. log: a ratio's
        # interval, read on the log scale.
        def more_to_clear(ci, edge, starts, measurements, log: true)
          scale = log ? ->(x) { Math.log(x) } : ->(x) { x }
          half_width = (scale.call(ci.high) - scale.call(ci.low)) / 2
          distance = (scale.call(ci.estimate) - scale.call(edge)).abs
          return {} unless distance.positive? && starts.to_i.positive?

          more_facts(((starts * ((half_width / distance)**2)).ceil - starts).clamp(1, 10_000), starts, measurements)
        end

        def more_facts(more_starts, starts, measurements)
          per_start_s = measurements.sum { |m| load_s_per_start(m) }
          { more_starts: more_starts, after_starts: starts, more_s: (more_starts * per_start_s).round }
        end

        def load_s_per_start(measurement)
          starts = measurement.repeats.map(&:deployment).uniq.size
          measurement.repeats.sum { |r| r.result.duration_s.to_f } / [starts, 1].max
        end
      end
    end
  end
end

Dir[File.join(__dir__, "checks", "*.rb")].each { |file| require file }
