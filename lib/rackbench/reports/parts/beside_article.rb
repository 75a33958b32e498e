# frozen_string_literal: true

module Rackbench
  module Reports
    # The seed article's printed figures beside this run's (Article::Printed),
    # absolute and as the ratios its claims are about, and a paragraph on what
    # agrees and what does not, with the likely reasons the suite names for
    # each claim (article: claims: likely:). Part of the article report.
    #
    #   BesideArticle.new(summary, answers).render   # => "\n### The article beside this run\n..."
    class BesideArticle
      LABELS = { "requests_per_s" => "req/s", "latency_mean_ms" => "mean ms", "longest_ms" => "longest ms",
                 "total_time_s" => "total s", "transfer_kb_per_s" => "KB/s", "server_load" => "server load",
                 "memory_mb" => "memory MB", "memory_per_worker_mb" => "MB per worker", "errors" => "errors n/tot" }.freeze

      def initialize(summary, answers)
        @summary = summary
        @printed = summary.printed
        @answers = answers
      end

      def render
        return "" unless @printed

        out = +"\n### The article beside this run\n\n"
        out << "#{provenance}\n"
        out << "\n#{@printed.note}\n" if @printed.note
        out << figures_table unless @printed.empty?
        out << ratios_table
        out << "\n#{agreement}\n"
      end

      private

      def provenance
        here = [@summary.machine_text, @summary.load_text].compact.join(", ")
        "The article's machine: #{@printed.hardware}. Its versions: #{@printed.versions}. This run: #{here}."
      end

      def figures_table
        metrics = @printed.metrics
        header = ["config", "where", *metrics.flat_map { |m| ["#{LABELS.fetch(m)}: article", "here"] }]
        rows = @printed.rows.map do |row|
          [row.label, where(row), *metrics.flat_map { |m| [show(row.article[m]), here(row.here, m)] }]
        end
        "\n#{table(header, rows)}"
      end

      # "page c=250": the row's endpoint and level as measured here, else as the article named them.
      def where(row)
        cell = row.here&.cell
        cell ? "#{cell["endpoint"]} c=#{cell["concurrency"]}" : row.where
      end

      # This run's figure for a printed column ("not measured" for a failed cell).
      def here(figures, metric)
        return "not measured" unless figures&.ok?

        case metric
        when "errors" then figures.errors_n_tot
        when "memory_per_worker_mb" then show(per_worker_mb(figures))
        else show(figures.metric(metric))
        end
      end

      def per_worker_mb(figures)
        figures.memory_mb && figures.processes.to_i.positive? ? figures.memory_mb / figures.processes : nil
      end

      # Claims that compare two configs: the article's ratio (where it printed both figures) and this run's.
      def ratios_table
        rows = @answers.zip(@summary.claim_specs).filter_map do |answer, spec|
          next unless %w[beats ties].include?(answer.kind)

          article = @printed.ratio(spec)
          [answer.says, spec.fetch("metric", "good_requests_per_s"), article ? format("%.2fx", article) : "not printed",
           ratio_here(answer), ClaimText.new(answer).word]
        end
        return "" if rows.empty?

        "\nThe ratios the claims are about (a over b; lower-is-better metrics b over a; here with its " \
          "#{(Stats::LEVEL * 100).round} % interval):\n\n#{table(%w[claim metric article here answer], rows)}"
      end

      def ratio_here(answer)
        ci = answer.interval
        return "none" unless ci

        ci.level.zero? ? format("%.2fx (one start)", ci.estimate) : format("%.2fx [%.2f, %.2f]", ci.estimate, ci.low, ci.high)
      end

      # One paragraph: what agrees, what does not, and the likely reasons.
      def agreement
        groups = @answers.zip(@summary.claim_specs).group_by { |answer, _| @summary.agreement(answer) }
        parts = [[%w[agrees agree], :agrees], [%w[disagrees disagree], :disagrees],
                 [["is not settled", "are not settled"], :not_settled],
                 [["cannot be shown here"] * 2, :cannot_show_here]].filter_map do |(one, many), key|
          list = groups[key] || []
          "#{list.size} #{list.size == 1 ? one : many} (#{list.map { |a, _| a.says }.join("; ")})" unless list.empty?
        end
        reasons = (groups[:disagrees].to_a + groups[:cannot_show_here].to_a).filter_map { |_, spec| spec["likely"] }.uniq
        "Of the article's #{@answers.size} claims, this run: #{parts.join(", ")}." \
          "#{" Likely reasons: #{reasons.join(" ")}" unless reasons.empty?}"
      end

      def show(value)
        case value
        when Float then value >= 100 ? value.round(1).to_s : value.round(2).to_s
        when nil then "-"
        else value.to_s
        end
      end

      def table(header, rows)
        lines = [header, header.map { "---" }, *rows].map { |cells| "| #{cells.join(" | ")} |" }
        "#{lines.join("\n")}\n"
      end
    end
  end
end
