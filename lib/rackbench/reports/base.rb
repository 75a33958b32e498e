# frozen_string_literal: true

module Rackbench
  module Reports
    # The contract of a report format:
    #
    #   text = Reports.fetch("markdown").new(run, cells).render   # => String
    #
    # run and cells are rows from the Store (Store#run, Store#cells); a report
    # reads nothing else, so it renders an old run exactly as a new one.
    # #rows gives the shaped rows every tabular format shares.
    class Base
      COLUMNS = [
        ["server", "Server / config"], ["concurrency", "Conc."], ["requests_per_s", "Throughput (req/s)"],
        ["latency_mean_ms", "Latency mean (ms)"], ["latency_p99_ms", "p99 (ms)"], ["errors", "Errors (n/tot)"],
        ["memory_mb", "Memory PSS (MB)"], ["cpu_percent", "Server CPU %"]
      ].freeze

      attr_reader :run, :cells

      def initialize(run, cells)
        @run = run
        @cells = cells
      end

      # Cells grouped by endpoint, in plan order: {"/hello" => [row, ...]}
      def sections
        cells.group_by { |c| c["endpoint"] }.transform_values { |cs| cs.map { |c| row(c) } }
      end

      def row(cell)
        res = cell["resources"] || {}
        result = cell["result"] || {}
        total = result["requests"] && Result.from_h(result).total
        {
          "server" => cell["label"], "concurrency" => cell["concurrency"],
          "requests_per_s" => cell["requests_per_s"]&.round(2),
          "latency_mean_ms" => cell["latency_mean_us"] && (cell["latency_mean_us"] / 1000.0).round(2),
          "latency_p99_ms" => cell["latency_p99_us"] && (cell["latency_p99_us"] / 1000.0).round(2),
          "errors" => cell["status"] == "ok" ? "#{cell["errors"]}/#{total}" : "FAILED",
          "memory_mb" => (res["pss_max_bytes"] || res["rss_max_bytes"])&.then { |b| (b / 1_048_576.0).round(1) },
          "cpu_percent" => res["cpu_percent"],
          "status" => cell["status"], "reason" => cell["reason"]
        }
      end

      def heading
        m = run["machine"] || {}
        pin = run["pinning"] || {}
        pinned = "not pinned"
        if pin["server_cpus"]
          pinned = "server on CPU #{pin["server_cpus"].join(",")}, load on CPU #{pin["client_cpus"].join(",")}"
        end
        ["Run #{run["id"]}: suite #{run["suite"]} (#{run["status"]}, #{run["started_at"]})",
         "Machine: #{m["cpu_model"]}, #{m["cores"]} cores, Linux #{m["kernel"]}, #{m["ruby"]}",
         "Engine: #{m["engine"]} #{m["engine_version"]}; #{pinned}"]
      end

      def failures
        cells.reject { |c| c["status"] == "ok" }.uniq { |c| [c["label"], c["reason"]] }
      end

      def warnings
        cells.flat_map { |c| (c.dig("result", "warnings") || []).map { |w| "#{c["label"]}: #{w}" } }.uniq
      end

      def fmt(value)
        case value
        when nil then "-"
        when Float then format("%.2f", value)
        else value.to_s
        end
      end
    end
  end
end
