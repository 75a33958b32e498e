# frozen_string_literal: true

module Rackbench
  # Stored-looking runs and cells for the report tests: the same hashes
  # Store#run and Store#cells return, written by hand so each figure is known.
  module SeedFixtures
    def cell(label, config, endpoint: "hello", concurrency: 10, rps: 100.0, mean_ms: 10.0, errors: 0, requests: 1000,
             status: "ok", reason: nil, max_ms: 50.0, series: [], histogram: nil, cpu_percent: 90.0, pss_mb: 50)
      {
        "label" => label, "server" => config["server"], "config" => config, "endpoint" => endpoint, "path" => "/#{endpoint}",
        "concurrency" => concurrency, "engine" => "native", "status" => status, "reason" => reason,
        "requests_per_s" => status == "ok" ? rps : nil, "latency_mean_us" => status == "ok" ? mean_ms * 1000 : nil,
        "latency_p99_us" => status == "ok" ? max_ms * 900 : nil, "errors" => status == "ok" ? errors : nil,
        "engine_command" => ["rackbench-load", "-c", concurrency.to_s],
        "result" => if status == "ok"
                      { "requests" => requests, "duration_s" => requests / rps, "bytes" => requests * 2495,
                        "errors" => { "connect" => errors, "status" => 0 },
                        "latency_us" => { "mean" => mean_ms * 1000, "p50" => mean_ms * 1000, "p99" => max_ms * 900, "max" => max_ms * 1000 },
                        "series" => series, "histogram" => histogram }
                    end,
        "resources" => status == "ok" ? { "cpu_percent" => cpu_percent, "pss_max_bytes" => pss_mb * 1_048_576, "processes_max" => 2 } : nil
      }
    end

    def stored_run(article: {}, scaled: nil, dir: "/nonexistent")
      { "id" => 7, "suite" => "seed-test", "status" => "finished", "started_at" => "2026-01-01T00:00:00Z", "dir" => dir,
        "settings" => { "app" => "rack", "article" => article, "scaled" => scaled }.compact,
        "machine" => { "cores" => 2, "engine" => "native" }, "pinning" => {} }
    end
  end
end
