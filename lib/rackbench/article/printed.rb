# frozen_string_literal: true

module Rackbench
  module Article
    # The figures a seed article printed (its suite's `article: printed:`),
    # each row matched to this run's cell of the same config, and the ratios
    # its claims are about, the article's beside this run's. Created by
    # Summary for the article report.
    #
    #   printed:
    #     hardware: a 512 MB Slicehost VPS slice, ab on it too
    #     versions: Thin 0.8, nginx 0.6, Rails 2.0, Ruby 1.8.6
    #     rows:                          # as the article printed them
    #       - {a: {server: thin, instances: 4, proxy: {workers: 3}}, endpoint: page,
    #          requests_per_s: 246.31, latency_mean_ms: 405.995, errors: 0/10000}
    #
    #   printed = Printed.new(spec, cells, scaled: scaled)
    #   printed.rows      # => [Row(label: "thin x4 ...", article: {"requests_per_s" => 246.31, ...}, here: Figures)]
    #   printed.metrics   # => ["requests_per_s", "latency_mean_ms", "errors"] (the columns the article printed)
    #   printed.ratio(claim_spec)   # => 0.84 (the article's a over b on the claim's metric), or nil
    class Printed
      # The columns an article may print, in the order shown: Figures METRICS
      # names, and errors as "n/tot".
      METRICS = %w[requests_per_s latency_mean_ms longest_ms total_time_s transfer_kb_per_s server_load memory_mb
                   memory_per_worker_mb errors].freeze

      Row = Struct.new(:spec, :article, :here, keyword_init: true) do
        def label = here&.label || spec["label"] || spec["a"].map { |k, v| "#{k} #{v}" }.join(", ")
        def where = [spec["endpoint"], spec["concurrency"] && "c=#{spec["concurrency"]}"].compact.join(" ")
      end

      attr_reader :spec

      def initialize(spec, cells, scaled: nil)
        @spec = spec || {}
        @cells = cells
        @scaled = scaled
      end

      def hardware = spec["hardware"]
      def versions = spec["versions"]
      def note = spec["note"]
      def empty? = spec.fetch("rows", []).empty?

      def rows
        @rows ||= spec.fetch("rows", []).map do |row|
          Row.new(spec: row, article: row.slice(*METRICS), here: lookup(row).find(row["a"]))
        end
      end

      def metrics = METRICS.select { |m| rows.any? { |r| r.article.key?(m) } }

      # The article's ratio behind a claim: a's printed figure over b's (b's
      # over a's where lower is better), on the claim's metric; nil when the
      # article printed no figure for one of them.
      def ratio(claim_spec)
        a = printed_row(claim_spec, "a")
        b = printed_row(claim_spec, "b")
        metric = claim_spec.fetch("metric", "good_requests_per_s")
        x = a && value(a, metric)
        y = b && value(b, metric)
        return nil unless x&.positive? && y&.positive?

        Figures::METRICS.fetch(metric)[1] == :lower ? y / x : x / y
      end

      # The article's failed share of a row's requests, from its "n/tot".
      def self.error_share(text)
        n, total = text.to_s.split("/").map(&:to_f)
        total.to_f.positive? ? n / total : nil
      end

      private

      def lookup(row) = Claim.new(row.slice("endpoint", "concurrency").merge("says" => "printed"), @cells, scaled: @scaled)

      def printed_row(claim_spec, side)
        rows.find do |row|
          row.spec["a"] == claim_spec[side] && row.spec["endpoint"] == claim_spec["endpoint"] &&
            (claim_spec["concurrency"].nil? || row.spec["concurrency"] == claim_spec["concurrency"])
        end
      end

      # A printed figure; good responses per second from req/s and the errors' n/tot.
      def value(row, metric)
        return row.article[metric]&.to_f unless metric == "good_requests_per_s"

        rate = row.article["requests_per_s"]
        share = self.class.error_share(row.article["errors"]) || 0.0
        rate && (rate * (1 - share))
      end
    end
  end
end
