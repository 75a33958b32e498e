# frozen_string_literal: true

require_relative "../article/summary"

module Rackbench
  module Reports
    # The contract of a report format:
    #
    #   text = Reports.fetch("markdown").new(run, measurements).render   # => String
    #
    # run is Store#run; measurements are Store#measurements (Measurement
    # objects, which also answer m["label"], m["concurrency"], ... like the
    # stored rows). A report reads nothing else, so it renders an old run
    # exactly as a new one. Base gives what the tabular formats share: the
    # heading (what ran), rows of figures, verdicts per block and warnings,
    # and #document: the report built once from them (RunDocument), which
    # table, markdown, html and json serialize section by section. Every
    # table any format prints is a Grid, the one table writer.
    class Base
      COLUMNS = [
        ["server", "Server / config"], ["concurrency", "Conc."], ["throughput", "Throughput req/s [95% CI]"],
        ["cv", "CV"], ["latency_p50_ms", "p50 ms"], ["latency_p99_ms", "p99 ms [95% CI]"],
        ["errors", "Errors n/tot"], ["memory", "Memory MB"], ["cpu_percent", "CPU %"], ["repeats", "Rep."]
      ].freeze

      attr_reader :run, :cells

      def initialize(run, cells)
        @run = run
        @cells = cells
      end

      def measurements = cells

      # The report built once (RunDocument): table, markdown, html and json write it.
      def document = @document ||= RunDocument.new(self).document

      # Measured cells grouped by endpoint, in plan order: {"/hello" => [row, ...]}
      def rows_by_endpoint
        cells.select(&:ok?).group_by(&:endpoint).transform_values { |ms| ms.map { |m| row(m) } }
      end

      def row(m)
        ci = m.requests_per_s_ci
        p99_ci = m.latency_ci_ms(99)
        {
          "server" => m.label, "concurrency" => m.concurrency,
          "requests_per_s" => m.requests_per_s&.round(1),
          "requests_per_s_low" => ci&.low&.round(1), "requests_per_s_high" => ci&.high&.round(1),
          "throughput" => throughput_text(m.requests_per_s, ci),
          "cv" => m.cv && "#{(m.cv * 100).round(1)}%",
          "latency_mean_ms" => m.latency_mean_ms&.round(2),
          "latency_p50_ms" => censored_text(m, 50) || m.latency_ms(50)&.round(2),
          "latency_p99_ms" => censored_text(m, 99) || p99_text(m, p99_ci),
          "errors" => m.errors_n_tot,
          "memory" => m.memory_mb && "#{m.memory_kind} #{m.memory_mb.round(1)}",
          "memory_mb" => m.memory_mb&.round(1), "memory_kind" => m.memory_kind,
          "cpu_percent" => m.cpu_percent,
          "repeats" => "#{m.repeats.size}/#{m.deployments}d",
          "warnings" => m.warnings.join("; "),
          "status" => m.status, "reason" => m.reason
        }
      end

      # "3.34 [2.80, 3.90]", or why no p99 is shown: "n=145, too few for p99".
      def p99_text(m, ci)
        return "n=#{m.latency_count}, too few for p99" unless m.estimable?(99)

        [m.latency_ms(99)&.round(2), ci && format("[%.2f, %.2f]", ci.low, ci.high)].compact.join(" ")
      end

      # A percentile that falls among requests left without a response: the
      # lower bound over all the windows' requests, ">= 3200.00" (ms).
      def censored_text(measurement, percentile)
        measurement.latency_all(percentile)&.bound ? measurement.latency_all_text(percentile) : nil
      end

      # How latency was measured, once per kind the run holds (closed loop under-samples stalls).
      def latency_model_lines
        cells.select(&:ok?).filter_map(&:latency_model_text).uniq.map { |text| "Latency: #{text}" }
      end

      def throughput_text(estimate, ci)
        return nil unless estimate
        return grouped(estimate) unless ci

        "#{grouped(estimate)} [#{grouped(ci.low)}, #{grouped(ci.high)}]"
      end

      # What ran: the run, the machine, the engine and pinning, and the
      # settings actually used (command-line overrides included).
      def heading
        m = run["machine"] || {}
        pin = run["pinning"] || {}
        pinned = "not pinned"
        if pin["server_cpus"]
          pinned = "server on CPU #{pin["server_cpus"].join(",")}, load on CPU #{pin["client_cpus"].join(",")}"
        end
        status = [run["status"], run["reason"]].compact.join(": ")
        ["Run #{run["id"]}: suite #{run["suite"]} (#{status}, #{run["started_at"]})",
         "Machine: #{m["cpu_model"]}, #{m["cores"]} cores, Linux #{m["kernel"]}, #{m["ruby"]}",
         "Engine: #{m["engine"]} #{m["engine_version"]}; #{pinned}", *latency_model_lines,
         *app_bundle_lines(m["app_bundles"]),
         "Settings: #{settings_text}", ServedBefore.line(cells), *doctor_lines(m["doctor"])].compact
      end

      # What `rackbench doctor` found before the run: each warning, and how many notes.
      def doctor_lines(findings)
        return [] unless findings

        warnings, notes = findings.partition { |f| f["severity"] == "warning" }
        lines = warnings.map { |f| "Doctor: #{f["message"]} (#{f["where"]}); fix: #{f["fix"]}" }
        if notes.any?
          lines << "Doctor: #{notes.size} note(s): #{notes.map do |f|
            f["check"]
          end.uniq.join(", ")} (json format lists them)"
        end
        lines.empty? ? ["Doctor: nothing found that would mislead"] : lines
      end

      # The app's own bundle (AppBundle#to_h), when the suite's app has one.
      def app_bundle_lines(bundles)
        (bundles || {}).map do |app, b|
          next "App #{File.basename(File.dirname(app))}: #{b["error"]}" if b["error"]

          gems = %w[rails sinatra roda rack].filter_map { |g| b["gems"][g] && "#{g} #{b["gems"][g]}" }
          digest = b["gemfile_lock_sha256"].to_s[0, 12]
          ["App #{File.basename(File.dirname(app))}: its own bundle, Gemfile.lock sha256 #{digest}", "Ruby #{b["ruby"]}",
           *gems].join(", ")
        end
      end

      # The run's setting, or the suite key's default (Suite::KEYS) when it has none.
      def setting(settings, key) = settings[key] || Suite::KEYS.fetch(key).default

      def settings_text
        s = run["settings"] || {}
        tune = s["tune"]
        return suite_settings_text(s) unless tune
        return tune_settings_text(tune) if tune["max_probe_s"]

        "tune probes: open loop, #{tune["probe_s"]} s windows after #{tune["probe_warmup_s"]} s warm-up, " \
          "one repeat each; the rate's CI comes from the probes at the knee"
      end

      # A suite run's windows, repeats, order and command-line overrides; then
      # what --smoke or --scale changed, said as every output says it (Article::Summary).
      def suite_settings_text(settings)
        order = "order #{settings["order"] || "sequential"}#{" (seed #{settings["seed"]})" if settings["seed"]}"
        window = settings["requests"] ? "windows of #{settings["requests"]} requests" : "#{settings["duration_s"]} s windows"
        parts = ["#{window} after #{settings["warmup_s"]} s warm-up",
                 RepeatPolicy.new(settings).to_s, order, duet_text(settings), overrides_text(settings["overrides"] || {})]
        scaled = Rackbench::Article::Summary.new(run, []).scaled_text
        [parts.compact.join("; "), scaled].compact.join(". ")
      end

      # A duet's figures are each config's under a shared CPU: the ratios are what to read.
      def duet_text(settings)
        if settings["ratio"] == "duet" && !settings["duet"]
          return "ratio: duet: each start adds a ratio window a block, its configs loaded at one instant on the " \
                 "same CPUs with equal CPU shares; a throughput verdict reads those while both servers kept the " \
                 "CPU busy#{ratio_stage_text(settings)}, and every figure comes from " \
                 "the windows in turns"
        end
        return nil unless settings["duet"]

        "duet: the configs of a round loaded at one instant on the same CPUs with equal CPU shares, so each " \
          "figure is a config's under a share of the CPU and the ratios between configs are what to read"
      end

      # A run whose blocks its ratio windows decided took one window in turns a start in their first stage.
      def ratio_stage_text(settings)
        windows = settings["ratio_stage_windows"] or return ""

        " (such a block took #{windows} window#{"s" unless windows == 1} in turns a start in its first stage, " \
          "ratio windows only after it)"
      end

      def overrides_text(overrides)
        return nil if overrides.empty?

        "command line: #{overrides.map { |k, v| "#{k}=#{v.is_a?(Array) ? v.join(",") : v}" }.join(" ")}"
      end

      # A tune run's probes (Tune::Tuner) and what its knee's interval means.
      def tune_settings_text(tune)
        "tune probes: open loop, #{tune["arrivals"]} arrivals, #{format("%g", tune["probe_s"])} to #{tune["max_probe_s"]} s " \
          "windows (long enough for #{tune["probe_requests"]} requests) after #{tune["probe_warmup_s"]} s warm-up; each rate " \
          "probed until its pass or miss is clear (at most #{Tune::Knee::TRIES} probes); each search's knee confirmed " \
          "on a fresh deployment#{searches_text(tune)}"
      end

      # Where the knee's interval comes from (Tune::KneeSample); older tune runs made one search.
      def searches_text(tune)
        return "" unless tune["searches"].to_i > 1

        "; the knee's interval from up to #{tune["searches"]} independent searches of a config (Student t over them, " \
          "log scale)"
      end

      # The run's verdicts, decided once in results/ (Verdicts): throughput of
      # good responses and latency, per block, with their intervals.
      def verdicts = verdict_set.entries

      # One line on how many comparisons were made and how many false ones the
      # procedure allows (Multiplicity); "" when none was made.
      def verdicts_note = verdict_set.multiplicity.to_s

      def verdict_set
        @verdict_set ||= Verdicts.new(cells, margin: run.dig("settings", "margin") || Comparison::MARGIN,
                                             tune: run.dig("settings", "tune"))
      end

      # A rate sweep's curves (latency against offered rate), built once: the
      # document's sections and json's rate_sweeps read the same.
      def rate_sweep = @rate_sweep ||= RateSweep.new(cells, auto: run.dig("settings", "auto_rates"))

      VERDICTS_HEADING = "Verdicts (95 % intervals over server starts; see README \"How rackbench decides\")"

      # Warnings grouped by kind: one line each, with how many cells it
      # concerns, one example and the advice. A warning with a value is one of
      # its kind, the worst shown; an engine's is grouped by its code (the
      # native engine's), else with those of the same words.
      def warnings
        all = cells.flat_map { |m| m.warnings.map { |w| [m, w] } }
        all.group_by { |_, w| [w.kind, w.value ? nil : w.code || w.message] }.map do |_, list|
          m, w = list.max_by { |_, x| x.value.to_f }
          where = "#{m.label} #{m.endpoint} c=#{m.concurrency}"
          count = list.map(&:first).uniq.size
          scope = count > 1 ? "#{count} cells, e.g. #{where}" : where
          "#{w.message} (#{scope})#{": #{w.advice}" if w.advice}"
        end
      end

      def fmt(value)
        case value
        when nil then "-"
        when Float then format("%.2f", value)
        else value.to_s
        end
      end

      # Text folded at word boundaries to width columns; later lines indented (Words.wrap).
      def wrap(text, width: 120, indent: "    ") = Words.wrap(text, width: width, indent: indent)

      # 18234.5 -> "18,234"; small numbers keep a decimal.
      def grouped(value)
        return "-" unless value

        text = value >= 100 ? value.round.to_s : format("%.1f", value)
        text.gsub(/(\d)(?=(\d{3})+(?!\d))/, "\\1,")
      end
    end
  end
end
