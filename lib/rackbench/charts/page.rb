# frozen_string_literal: true

require_relative "../article/summary"
require_relative "frame"
require_relative "specs"
require_relative "scaling"
require_relative "percentiles"
require_relative "memory"
require_relative "ranked_bars"
require_relative "rate_sweep"
require_relative "why"

module Rackbench
  module Charts
    # The charts of the html report, chosen by the shape of the run rather
    # than listed by the suite:
    #
    #   an endpoint measured at 2+ concurrencies  throughput and p99 against concurrency with CI bands (Scaling)
    #   an endpoint measured at one concurrency    a bar per config with its CI (RankedBars)
    #   every cell group (endpoint x concurrency)  the latency percentile plot (Percentiles) and the
    #                                              per-second timelines of req/s and p99 (Specs' "timeline" kind)
    #   the run sampled memory                     memory per config and per server process (Memory)
    #   the run had explain: true                  per endpoint and config, p50 and p99 split into queue,
    #                                              app and GC against concurrency (Why)
    #   a seed suite                               the article's own chart kinds (Specs), but timelines and req/s bars
    #
    # Groups where nothing was measured draw nothing: the page lists those
    # cells once per server instead. Created by Reports::Html.
    #
    #   page = Page.new(run, measurements)
    #   page.lead     # the chart that answers the question first
    #   page.scaling  # => [[throughput, p99], ...] one pair per endpoint
    class Page
      # Two charts side by side on a laptop's screen.
      WIDTH_PX = 440

      attr_reader :labels

      def initialize(run, measurements)
        @run = run
        @measurements = measurements
        @summary = Article::Summary.new(run, measurements)
        @labels = measurements.select(&:ok?).map(&:label).uniq
      end

      def lead = rate_sweeps.first || scaling.dig(0, 0) || bars.first

      def scaling
        @scaling ||= endpoints.filter_map do |title, list|
          fit(Scaling.new(title, list, labels).charts) if concurrencies(list).size >= 2
        end
      end

      def bars
        @bars ||= cell_groups.filter_map do |title, list, endpoint_list|
          next if list.any?(&:offered_rate_per_s) # a rate sweep's level: its knee chart says more

          fit([RankedBars.new(title, list, labels).chart]).first if concurrencies(endpoint_list).size == 1
        end
      end

      # [{"title"=>"rack /hello at concurrency 8", "charts"=>[percentiles, timeline]}]
      def cells
        @cells ||= begin
          kinds = [{ "kind" => "timeline" }, { "kind" => "timeline", "metric" => "p99_ms" }]
          timelines = Specs.new(@run, @measurements).of(kinds).to_h { |c| [c["name"], c] }
          cell_groups.map do |title, list, _|
            charts = [Percentiles.new(title, list, labels).chart,
                      *%w[timeline timeline-p99].map { |s| timelines["#{Frame.slug(title)}-#{s}"] }].compact
            { "title" => title, "charts" => fit(charts) }
          end
        end
      end

      def memory = @memory ||= fit(Memory.new(@measurements, labels).charts)

      # [[endpoint title, [a chart per config]]] for a run made with explain: true.
      def why
        @why ||= endpoints.filter_map do |title, list|
          charts = Why.new(title, list, labels).charts
          [title, fit(charts)] unless charts.empty?
        end
      end

      # A rate sweep's latency against offered rate, per endpoint and concurrency.
      def rate_sweeps = @rate_sweeps ||= fit(RateSweep.new(@measurements).charts)

      # The seed article's own chart kinds, but those the page already draws:
      # the timelines (cell groups) and req/s bars (RankedBars, with CIs).
      def article
        @article ||= begin
          kinds = (@summary.article["charts"] || []).map { |k| k.is_a?(Hash) ? k : { "kind" => k } }
          fit(Specs.new(@run, @measurements).of(kinds.reject { |k| drawn?(k) }))
        end
      end

      def all
        [*rate_sweeps, *scaling.flatten, *bars, *cells.flat_map { |c| c["charts"] },
         *why.flat_map(&:last), *memory, *article]
      end

      private

      def drawn?(kind)
        kind["kind"] == "timeline" || (kind["kind"] == "bars" && kind.fetch("metric", "requests_per_s") == "requests_per_s")
      end

      def fit(charts) = charts.each { |c| c["spec"]["width"] = WIDTH_PX }

      def concurrencies(list) = list.select(&:ok?).map(&:concurrency).uniq

      # [[title, measurements]] per app and endpoint with something measured.
      def endpoints
        @summary.groups(%w[app endpoint]).filter_map do |group, figures|
          list = figures.map(&:measurement)
          [@summary.title(group), list] if list.any?(&:ok?)
        end
      end

      # [[title, measurements, the endpoint's measurements]] per app, endpoint and concurrency with something measured.
      def cell_groups
        by_endpoint = @summary.groups(%w[app endpoint]).to_h { |group, figures| [group, figures.map(&:measurement)] }
        @summary.groups.filter_map do |group, figures|
          list = figures.map(&:measurement)
          next unless list.any?(&:ok?)

          [@summary.title(group), list, by_endpoint.fetch(group.slice("app", "endpoint"))]
        end
      end
    end
  end
end
